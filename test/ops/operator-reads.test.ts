import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import test, { type TestFn } from 'ava';
import { sha256Hex, digestOf } from '@rights-preflight/wire/evidence/digest.js';
import type { EventStore } from '../../src/store/port.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { embeddedStore, postgresStore, sqliteStore, type StoreFactory } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';
import { operatorStore } from './operator-store.js';
import { offeredData, quotedData, SEALED } from '../streams/purchase/fixtures.js';
import { checkpointed, cli, deliveredPurchase, newPurchaseId, run, stuckPurchase } from './seed.js';

// The operator's read commands end to end (purchases, show, compliance) and the purchase-id prefixes
// every command accepts: real purchase streams appended through decide, the CLI run as a child
// process with the service's configuration. The embedded store admits one process, so each test
// closes its store before running the CLI.

const world = operatorStore;

const OTHER_ORIGIN = 'https://other.example';
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const CLAIM_SHA256 = sha256Hex('claim-token'); // the fixtures' Quoted.claim_sha256
const PAYMENT_SIGNATURE = '5a'.repeat(65); // inside the fixtures' sealed authorization

/** A quoted and offered purchase whose reading names an origin. */
async function otherOriginPurchase(store: EventStore): Promise<string> {
  const id = newPurchaseId();
  await run(store, id, {
    type: 'Quote',
    data: quotedData({ purchase_id: id, reading: { ...quotedData().reading, origin: OTHER_ORIGIN } }),
  });
  await run(store, id, { type: 'Offer', data: offeredData() });
  return id;
}

/** Another id sharing exactly the first 60 hex characters of `id` (ids are only names to the store). */
const sibling = (id: string) => id.slice(0, 60) + (id[60] === 'f' ? '0' : 'f') + id.slice(61);

async function deliveredResponse(
  store: EventStore,
  id: string,
): Promise<{ report: unknown; evidence: unknown; delivery_proof: unknown }> {
  const delivered = (await store.readStream(streamName(id))).find((e) => e.type === 'Delivered')!;
  return (delivered.data as { response: { report: unknown; evidence: unknown; delivery_proof: unknown } }).response;
}

interface Row {
  purchase_id: string;
  status: string;
  origin: string | null;
  quoted_at: string;
  report_sha256: string | null;
}

function suite(label: string, factory: StoreFactory): void {
  test.serial(
    `${label}: purchases lists the report view newest first, ` +
      'filtered by status, origin and since; bad filters are usage errors',
    async (t) => {
      const w = await world(factory);
      try {
        const stuck = await stuckPurchase(w.sut.store);
        const delivered = await deliveredPurchase(w.sut.store);
        const other = await otherOriginPurchase(w.sut.store);
        await w.sut.store.close();

        const all = await cli(['purchases', '--json'], w.env);
        t.is(all.code, 0, all.stderr);
        const rows = JSON.parse(all.stdout).purchases as Row[];
        t.deepEqual(rows.map((r) => r.purchase_id).sort(), [stuck, delivered, other].sort());
        const newestFirst = [...rows].sort((a, b) =>
          (b.quoted_at + b.purchase_id).localeCompare(a.quoted_at + a.purchase_id),
        );
        t.deepEqual(
          rows.map((r) => r.purchase_id),
          newestFirst.map((r) => r.purchase_id),
          'newest quote first',
        );
        t.is(rows[0]!.purchase_id, other, 'the purchase quoted last comes first');
        t.regex(
          rows.find((r) => r.purchase_id === delivered)!.report_sha256 ?? '',
          /^[0-9a-f]{64}$/,
          '--json prints the full row',
        );

        const ids = async (...args: string[]) => {
          const r = await cli(['purchases', ...args, '--json'], w.env);
          t.is(r.code, 0, r.stderr);
          return (JSON.parse(r.stdout).purchases as Row[]).map((x) => x.purchase_id);
        };
        t.deepEqual(await ids('--status', 'lock_stuck'), [stuck]);
        t.deepEqual(await ids('--status', 'delivered'), [delivered]);
        t.deepEqual(await ids('--status', 'closed'), []);
        t.deepEqual(await ids('--origin', OTHER_ORIGIN), [other]);
        t.deepEqual(await ids('--since', day(1)), [], 'nothing was quoted tomorrow');
        t.is((await ids('--since', day(-1))).length, 3);
        t.deepEqual(
          await ids('--since', new Date(Date.now() + 3_600_000).toISOString()),
          [],
          'an ISO time an hour ahead',
        );
        t.deepEqual(await ids('--limit', '1'), [other]);

        const text = await cli(['purchases'], w.env);
        t.is(text.code, 0, text.stderr);
        const lines = text.stdout.trimEnd().split('\n');
        t.regex(lines[0]!, /^id\s+status\s+sku\s+resource\s+purpose\s+classification\s+price\s+quoted_at$/);
        t.regex(
          text.stdout,
          new RegExp(
            `^${delivered.slice(0, 12)}\\s+delivered\\s+rights\\.preflight\\.v1\\s+` +
              'publisher\\.example/(news/story|\\S*…)' +
              '\\s+ai-input\\s+PERMITTED\\s+20000\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$',
            'm',
          ),
        );
        t.false(text.stdout.includes(delivered), 'the table shows the short id');
        for (const l of lines) t.true(l.length <= 120, `fits 120 columns: ${l}`);

        // Usage errors are found before the store is opened, so these may run side by side.
        const bads = [
          ['--status', 'shipped'],
          ['--status', 'none'],
          ['--since', 'yesterday'],
          ['--since', '2026-02-30'],
          ['--limit', '0'],
          ['--limit', '10001'],
          ['--limit', '5x'],
          ['--origin'],
          ['--sort', 'price'],
          ['extra'],
        ];
        const refused = await Promise.all(bads.map((bad) => cli(['purchases', ...bad], w.env)));
        bads.forEach((bad, i) => {
          t.is(refused[i]!.code, 2, `purchases ${bad.join(' ')} is a usage error`);
          t.regex(refused[i]!.stderr, /usage: npm run ops -- purchases/);
        });
        t.regex(refused[0]!.stderr, /--status must be one of quoted \| offered .* lock_stuck \| closed/);
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(
    `${label}: show prints one purchase's row, timeline and refund status by full id or unique prefix, never a secret`,
    async (t) => {
      const w = await world(factory);
      try {
        const stuck = await stuckPurchase(w.sut.store);
        const delivered = await deliveredPurchase(w.sut.store);
        const response = await deliveredResponse(w.sut.store, delivered);
        await w.sut.store.close();

        const full = await cli(['show', delivered, '--json'], w.env);
        t.is(full.code, 0, full.stderr);
        const shown = JSON.parse(full.stdout) as {
          purchase: Row & Record<string, unknown>;
          history: { type: string; revision: string }[];
          refund: unknown;
        };
        t.is(shown.purchase.purchase_id, delivered);
        t.is(shown.purchase.status, 'delivered');
        t.is(shown.purchase.report_sha256, digestOf(response.report));
        t.is(shown.purchase.delivery_proof_sha256, digestOf(response.delivery_proof));
        t.deepEqual(
          shown.history.map((h) => h.type),
          ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'Settled', 'Delivered'],
        );
        t.deepEqual(
          shown.history.map((h) => h.revision),
          ['0', '1', '2', '3', '4'],
        );
        t.is(shown.refund, null);

        const byPrefix = await cli(['show', stuck.slice(0, 8)], w.env);
        t.is(byPrefix.code, 0, byPrefix.stderr);
        t.regex(byPrefix.stdout, new RegExp(`^purchase ${stuck}$`, 'm'));
        t.regex(byPrefix.stdout, /status\s+lock_stuck \(from checkpointed\): WINDOW_PASSED_UNSETTLED/);
        t.regex(
          byPrefix.stdout,
          /Quoted[\s\S]*Offered[\s\S]*AuthorizationCheckpointed[\s\S]*LockStuck/,
          'the timeline in stream order',
        );
        t.regex(byPrefix.stdout, /refund: none requested/);
        t.is(
          (await cli(['show', `purchase-${stuck.slice(0, 6).toUpperCase()}`, '--json'], w.env)).code,
          0,
          'purchase-<prefix>, any case',
        );

        for (const out of [full.stdout, byPrefix.stdout]) {
          t.false(/sealed/i.test(out), 'no sealed authorization');
          t.false(out.includes(CLAIM_SHA256) || out.includes('claim'), 'no claim digest');
          t.false(
            out.includes(PAYMENT_SIGNATURE) || out.includes(SEALED.ciphertext.slice(0, 24)),
            'no payment signature, not even sealed',
          );
        }

        const tooShort = await cli(['show', stuck.slice(0, 1)], w.env);
        t.is(tooShort.code, 2);
        t.regex(tooShort.stderr, /too short: give at least 4 hex characters/);
        const notHex = await cli(['show', 'zz12'], w.env);
        t.is(notHex.code, 2);
        t.regex(notHex.stderr, /"zz12" is not a purchase id/);
        const unknown = sibling(delivered);
        const none = await cli(['show', unknown.slice(0, 62)], w.env);
        t.is(none.code, 1);
        t.regex(
          none.stderr,
          new RegExp(`refused NO_SUCH_PURCHASE: no purchase id starts with ${unknown.slice(0, 62)}`),
        );
        const noneJson = await cli(['show', unknown, '--json'], w.env);
        t.is(noneJson.code, 1);
        t.is(JSON.parse(noneJson.stdout).refused.code, 'NO_SUCH_PURCHASE');
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(
    `${label}: move, refunds, audit and show take a unique prefix; an ambiguous one is refused with its candidates`,
    async (t) => {
      const w = await world(factory);
      try {
        const stuck = await stuckPurchase(w.sut.store);
        const twin = await checkpointed(w.sut.store, sibling(stuck));
        await w.sut.store.close();
        const shared = stuck.slice(0, 60);

        const ambiguous = await cli(['show', shared], w.env);
        t.is(ambiguous.code, 1);
        t.regex(ambiguous.stderr, /refused AMBIGUOUS_PREFIX: 2 purchase ids start with/);
        t.true(ambiguous.stderr.includes(stuck) && ambiguous.stderr.includes(twin), 'both candidates are named');
        const ambiguousMove = await cli(
          ['move', shared, '--to', 'closed_no_charge', '--note', 'x', '--operator', 'ops@example', '--json'],
          w.env,
        );
        t.is(ambiguousMove.code, 1);
        t.deepEqual(JSON.parse(ambiguousMove.stdout).refused.details.candidates, [stuck, twin].sort());

        const unique = stuck.slice(0, 61);
        t.not(unique, twin.slice(0, 61));
        const moved = await cli(
          [
            'move',
            unique,
            '--to',
            'closed_no_charge',
            '--note',
            'authorizationState unused on chain',
            '--operator',
            'ops@example',
          ],
          w.env,
        );
        t.is(moved.code, 0, moved.stderr);
        t.regex(moved.stdout, new RegExp(`^moved purchase-${stuck}: lock_stuck → closed_no_charge`));

        const audited = await cli(['audit', '--purchase', unique, '--json'], w.env);
        t.is(audited.code, 0, audited.stdout + audited.stderr);
        t.deepEqual(
          JSON.parse(audited.stdout).audits.map((a: { purchase_id: string; status: string }) => [
            a.purchase_id,
            a.status,
          ]),
          [[stuck, 'closed']],
        );
        const absent = (stuck[0] === '0' ? '1' : '0') + stuck.slice(1, 10); // differs from both in the first character
        const auditNone = await cli(['audit', '--purchase', absent], w.env);
        t.is(auditNone.code, 1);
        t.regex(auditNone.stderr, /refused NO_SUCH_PURCHASE/);
        const refund = await cli(
          ['refunds', 'review', unique, '--decision', 'approve', '--note', 'x', '--operator', 'ops@example'],
          w.env,
        );
        t.is(refund.code, 1, 'the prefix resolves; the purchase has no refund request');
        t.regex(refund.stderr, new RegExp(`refused NO_SUCH_REFUND_REQUEST: no stream refund-${stuck}`));

        const after = await cli(['show', unique, '--json'], w.env);
        t.is(after.code, 0, after.stderr);
        const shown = JSON.parse(after.stdout) as { purchase: { status: string }; history: { type: string }[] };
        t.is(shown.purchase.status, 'closed', 'show brings the read models up to date first');
        t.deepEqual(
          shown.history.map((h) => h.type),
          ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck', 'OperatorMoved'],
        );

        const store = await w.sut.reopen();
        t.deepEqual(
          (await store.readStream(streamName(twin))).map((e) => e.type),
          ['Quoted', 'Offered', 'AuthorizationCheckpointed'],
          'the refused move appended nothing to the other candidate',
        );
        await store.close();
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(
    `${label}: compliance export writes the delivered purchases with their stored ` +
      'digests (csv, jsonl; file mode 0600) and report writes the totals as HTML',
    async (t) => {
      const w = await world(factory);
      try {
        const a = await deliveredPurchase(w.sut.store);
        const b = await deliveredPurchase(w.sut.store);
        await stuckPurchase(w.sut.store);
        const responses = new Map([
          [a, await deliveredResponse(w.sut.store, a)],
          [b, await deliveredResponse(w.sut.store, b)],
        ]);
        await w.sut.store.close();
        const range = ['--from', day(-1), '--to', day(1)];
        const expectDigests = (row: Record<string, unknown>) => {
          const r = responses.get(String(row.purchase_id))!;
          t.is(row.report_sha256, digestOf(r.report));
          t.is(row.evidence_sha256, digestOf(r.evidence));
          t.is(row.delivery_proof_sha256, digestOf(r.delivery_proof));
        };

        const jsonlFile = path.join(w.dir, 'out', 'export.jsonl');
        await rm(path.dirname(jsonlFile), { recursive: true, force: true });
        const noDir = await cli(['compliance', 'export', ...range, '--format', 'jsonl', '--out', jsonlFile], w.env);
        t.is(noDir.code, 2, 'a missing directory fails the run');

        const jsonl = await cli(
          ['compliance', 'export', ...range, '--format', 'jsonl', '--out', path.join(w.dir, 'export.jsonl')],
          w.env,
        );
        t.is(jsonl.code, 0, jsonl.stderr);
        t.regex(jsonl.stderr, /exported 2 compliance row\(s\)/);
        t.is(jsonl.stdout, '');
        const rows = (await readFile(path.join(w.dir, 'export.jsonl'), 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        t.deepEqual(
          rows.map((r) => r.purchase_id).sort(),
          [a, b].sort(),
          'one row per delivered purchase, not the stuck one',
        );
        rows.forEach(expectDigests);
        t.is((await stat(path.join(w.dir, 'export.jsonl'))).mode & 0o777, 0o600);

        const csvFile = path.join(w.dir, 'export.csv');
        const csv = await cli(['compliance', 'export', ...range, '--format', 'csv', '--out', csvFile], w.env);
        t.is(csv.code, 0, csv.stderr);
        t.regex(csv.stderr, /exported 2 compliance row\(s\)/);
        t.is((await stat(csvFile)).mode & 0o777, 0o600);
        const [header, ...lines] = (await readFile(csvFile, 'utf8')).trimEnd().split(/\r?\n/);
        t.is(lines.length, 2);
        const columns = header!.split(',');
        for (const line of lines) {
          const cells = line.split(',');
          const row = Object.fromEntries(columns.map((c, i) => [c, cells[i]]));
          expectDigests(row);
        }
        t.deepEqual(
          (await readdir(w.dir)).filter((f) => f.endsWith('.tmp')),
          [],
          'no temporary file is left behind',
        );

        const stdout = await cli(['compliance', 'export', ...range, '--format', 'jsonl'], w.env);
        t.is(stdout.code, 0, stdout.stderr);
        t.deepEqual(
          stdout.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l).purchase_id)
            .sort(),
          [a, b].sort(),
          'to stdout without --out',
        );

        const empty = await cli(
          ['compliance', 'export', '--from', '2001-01-01', '--to', '2001-01-31', '--format', 'jsonl'],
          w.env,
        );
        t.is(empty.code, 0, empty.stderr);
        t.is(empty.stdout.trim(), '', 'no delivery in January 2001');

        const bads = [
          ['export', ...range], // no --format
          ['export', ...range, '--format', 'xml'],
          ['export', '--from', day(1), '--to', day(-1), '--format', 'csv'],
          ['export', '--from', '2026-13-01', '--to', day(1), '--format', 'csv'],
          ['export', '--to', day(1), '--format', 'csv'],
          ['report'], // no --out
          ['report', '--out', path.join(w.dir, 'r.html'), '--from', '2026-1-1'],
          ['publish'],
          [],
        ];
        const refused = await Promise.all(bads.map((bad) => cli(['compliance', ...bad], w.env)));
        bads.forEach((bad, i) =>
          t.is(refused[i]!.code, 2, `compliance ${bad.join(' ')} is a usage error: ${refused[i]!.stderr}`),
        );

        const htmlFile = path.join(w.dir, 'report.html');
        const report = await cli(['compliance', 'report', '--out', htmlFile], w.env);
        t.is(report.code, 0, report.stderr);
        t.regex(report.stdout, /2 delivered report\(s\) over 1 day\(s\)/);
        const html = await readFile(htmlFile, 'utf8');
        t.regex(html, /<html/i);
        t.true(html.includes('PERMITTED_BY_OBSERVED_DECLARATION'), 'the day × classification row');
        t.regex(html, /data-total="reports">2</, 'the report count');
        t.regex(html, /data-total="amount_usdc">0\.04</, 'the amount of both deliveries (2 × 20000 micro-USDC)');
        t.regex(html, /data-total="held">0</);
        t.is((await stat(htmlFile)).mode & 0o777, 0o600);
      } finally {
        await w.dispose();
      }
    },
  );
}

suite('embedded', embeddedStore);
suite('sqlite', sqliteStore);

test(
  "--help and -h print the command's usage and exit 0, " + 'for every command, whatever else is on the line',
  async (t) => {
    const commands = ['replay', 'audit', 'queue', 'purchases', 'show', 'move', 'refunds', 'compliance', 'keys'];
    const runs = commands
      .flatMap((c) => [
        [c, '--help'],
        [c, '-h'],
      ])
      .concat([
        ['audit', '--purchase', '--help'],
        ['move', 'abcd', '--to', 'x', '-h'],
        ['compliance', 'export', '--help'],
      ]);
    const results = await Promise.all(runs.map((args) => cli(args, {})));
    runs.forEach((args, i) => {
      const r = results[i]!;
      t.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      t.true(
        r.stdout.startsWith(`usage: npm run ops -- ${args[0]} `),
        `${args.join(' ')} prints its usage: ${r.stdout}`,
      );
      t.true(r.stdout.includes(`\n  ${args[0]} `), `${args.join(' ')} shows its synopsis`);
    });
    const unknown = await cli(['nope', '--help'], {});
    t.is(unknown.code, 2, 'an unknown command stays an error');
  },
);

const pgUrl = requiredServerUrl(test as TestFn, 'PG_TEST_URL', 'operator read commands on PostgreSQL', {
  requiredInCi: true,
});
if (pgUrl) suite('postgres', postgresStore(pgUrl));
