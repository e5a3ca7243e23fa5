import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test, { type TestFn } from 'ava';
import { READ_MODEL_TABLES } from '../../projections/schema.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { embeddedStore, postgresStore, sqliteStore, type StoreFactory } from '../store/fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';
import { operatorStore } from './operator-store.js';
import { cli, cliProcess, deliveredPurchase, EVIDENCE_SEED_HEX, stuckPurchase } from './seed.js';

// The operator CLI end to end: real purchase streams appended through decide on a real store, the CLI
// run as a child process with the service's configuration (EVENT_STORE_URL, DATA_DIR, EVIDENCE_KEY).
// The embedded store admits one process, so each test closes its store before running the CLI.

const world = operatorStore;

function suite(label: string, factory: StoreFactory): void {
  test.serial(
    `${label}: queue lists a stuck purchase; move appends OperatorMoved; a second move is refused`,
    async (t) => {
      const w = await world(factory);
      try {
        const stuck = await stuckPurchase(w.sut.store);
        const delivered = await deliveredPurchase(w.sut.store);
        await w.sut.store.close();

        const q = await cli(['queue', '--json'], w.env);
        t.is(q.code, 0, q.stderr);
        const items = JSON.parse(q.stdout).items as {
          purchase_id: string;
          kind: string;
          reason: string;
          status: string;
          history: { type: string }[];
        }[];
        t.deepEqual(
          items.map((i) => i.purchase_id),
          [stuck],
          'only the stuck purchase is queued, not the delivered one',
        );
        t.is(items[0]!.kind, 'lock_stuck');
        t.is(items[0]!.reason, 'WINDOW_PASSED_UNSETTLED');
        t.deepEqual(
          items[0]!.history.map((h) => h.type),
          ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck'],
        );
        t.false(q.stdout.includes('sealed'), 'the sealed authorization is not printed');
        const text = await cli(['queue'], w.env);
        t.is(text.code, 0);
        t.regex(text.stdout, new RegExp(`${stuck}.*lock_stuck.*WINDOW_PASSED_UNSETTLED`));

        const moved = await cli(
          [
            'move',
            stuck,
            '--to',
            'closed_no_charge',
            '--note',
            'authorizationState unused on chain; window passed',
            '--operator',
            'ops@example',
          ],
          w.env,
        );
        t.is(moved.code, 0, moved.stderr);
        t.regex(moved.stdout, /lock_stuck → closed_no_charge/);

        const again = await cli(
          ['move', stuck, '--to', 'retry_settlement', '--note', 'try again', '--operator', 'ops@example'],
          w.env,
        );
        t.is(again.code, 1);
        t.regex(again.stderr, /refused PURCHASE_CLOSED/);
        const notLocked = await cli(
          [
            'move',
            delivered,
            '--to',
            'closed_settled_delivered',
            '--note',
            'nothing held',
            '--operator',
            'ops@example',
          ],
          w.env,
        );
        t.is(notLocked.code, 1);
        t.regex(notLocked.stderr, /refused NOT_LOCKED/);
        const badTarget = await cli(['move', stuck, '--to', 'refund', '--note', 'x', '--operator', 'y'], w.env);
        t.is(badTarget.code, 2, 'an unknown target is a usage error');

        const after = await cli(['queue', '--json'], w.env);
        t.deepEqual(JSON.parse(after.stdout).items, [], 'a moved purchase leaves the open queue');
        t.is(
          (await cli(['queue', '--all'], w.env)).code,
          2,
          'the queue holds open items only; --all is refused, not ignored',
        );

        const store = await w.sut.reopen();
        const events = await store.readStream(streamName(stuck));
        t.deepEqual(
          events.map((e) => e.type),
          ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck', 'OperatorMoved'],
        );
        t.like(events.at(-1)!.data, {
          target: 'closed_no_charge',
          operator: 'ops@example',
          note: 'authorizationState unused on chain; window passed',
        });
        await store.close();
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(
    `${label}: a second move on a still-locked purchase after retry_settlement is refused NOT_LOCKED`,
    async (t) => {
      const w = await world(factory);
      try {
        const stuck = await stuckPurchase(w.sut.store);
        await w.sut.store.close();
        const first = await cli(
          [
            'move',
            stuck,
            '--to',
            'retry_settlement',
            '--note',
            'relayer was out of gas; refilled',
            '--operator',
            'ops@example',
          ],
          w.env,
        );
        t.is(first.code, 0, first.stderr);
        const second = await cli(
          ['move', stuck, '--to', 'retry_settlement', '--note', 'again', '--operator', 'ops@example'],
          w.env,
        );
        t.is(second.code, 1);
        t.regex(second.stderr, /refused NOT_LOCKED/);
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(
    `${label}: audit passes a clean ledger and fails (exit 1) on a Delivered whose evidence signature does not verify`,
    async (t) => {
      const w = await world(factory);
      try {
        const good = await deliveredPurchase(w.sut.store);
        await stuckPurchase(w.sut.store);
        await w.sut.store.close();

        const clean = await cli(['audit'], w.env);
        t.is(clean.code, 0, clean.stdout + clean.stderr);
        t.regex(clean.stdout, /audited 2 purchase stream\(s\).*no violations/);

        let store = await w.sut.reopen();
        const tampered = await deliveredPurchase(store, { signer: 'other' });
        await store.close();

        const dirty = await cli(['audit', '--json'], w.env);
        t.is(dirty.code, 1);
        const report = JSON.parse(dirty.stdout) as {
          purchases: number;
          audits: { purchase_id: string; violations: { check: string; message: string }[] }[];
        };
        t.is(report.purchases, 3);
        const bad = report.audits.filter((a) => a.violations.length > 0);
        t.deepEqual(
          bad.map((a) => a.purchase_id),
          [tampered],
        );
        t.deepEqual(
          bad[0]!.violations.map((v) => v.check),
          ['signatures'],
        );
        t.regex(bad[0]!.violations[0]!.message, /evidence does not verify/);

        const text = await cli(['audit'], w.env);
        t.is(text.code, 1);
        t.regex(text.stdout, new RegExp(`^${tampered.slice(0, 12)} .*1 violation`, 'm'));
        t.false(
          text.stdout.split('\n').some((l) => l.includes('violation(s)') && l.includes(tampered)),
          'the table row shows the 12-character prefix, not the full id',
        );
        const one = await cli(['audit', '--purchase', good], w.env);
        t.is(one.code, 0, 'auditing only the clean purchase passes');

        // A different service key: every signature fails.
        const wrongKey = await cli(['audit', '--purchase', good], { ...w.env, EVIDENCE_KEY: '07'.repeat(32) });
        t.is(wrongKey.code, 1);
        store = await w.sut.reopen();
        await store.close();
      } finally {
        await w.dispose();
      }
    },
  );

  test.serial(`${label}: replay empties every read model and rebuilds it from zero to the same rows`, async (t) => {
    const w = await world(factory);
    try {
      await deliveredPurchase(w.sut.store);
      await stuckPurchase(w.sut.store);
      await w.sut.store.close();

      const first = await cli(['replay', '--json'], w.env);
      t.is(first.code, 0, first.stderr);
      const out = JSON.parse(first.stdout) as {
        replayed: { table: string; rows: number }[];
        position: string;
        events: number;
      };
      t.deepEqual(
        out.replayed.map((r) => r.table),
        [...READ_MODEL_TABLES],
      );
      const rows = Object.fromEntries(out.replayed.map((r) => [r.table, r.rows]));
      t.like(rows, { rm_purchases: 2, rm_queue: 1, rm_refunds: 0, rm_compliance: 1, rm_compliance_daily: 1 });
      t.is(out.events, 9, 'every event of both purchases was read');

      // A stale checkpoint must not be resumed from: replay starts again at zero.
      const store = await w.sut.reopen();
      await store.sql!.query(`UPDATE rm_checkpoint SET position = 3`);
      await store.sql!.query(`DELETE FROM rm_purchases`);
      await store.close();
      const again = await cli(['replay', '--json'], w.env);
      t.is(again.code, 0, again.stderr);
      t.deepEqual(JSON.parse(again.stdout).replayed, out.replayed);
      t.is(JSON.parse(again.stdout).position, out.position);

      const text = await cli(['replay'], w.env);
      t.regex(text.stdout, /rm_purchases\s+2/);
      t.is((await cli(['replay', '--projection', 'report-view'], w.env)).code, 2, 'read models are rebuilt together');
    } finally {
      await w.dispose();
    }
  });
}

suite('embedded', embeddedStore);
suite('sqlite', sqliteStore);

test.serial('embedded: while another process holds the store, the CLI says StoreLocked and exits 2', async (t) => {
  const w = await world(embeddedStore);
  try {
    const r = await cliProcess(['queue'], w.env); // w.sut.store is open in this process
    t.is(r.code, 2);
    t.regex(r.stderr, /StoreLocked/);
    t.regex(r.stderr, /Stop the service/);
    t.regex(r.stderr, /PostgreSQL/);
  } finally {
    await w.dispose();
  }
});

test.serial('keys prints the public key and key id, never the seed', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rights-ops-keys-'));
  try {
    const env = { DATA_DIR: dataDir, EVIDENCE_KEY: EVIDENCE_SEED_HEX };
    const r = await cli(['keys', '--json'], env);
    t.is(r.code, 0, r.stderr);
    const info = JSON.parse(r.stdout);
    t.regex(info.key_id, /^[0-9a-f]{16}$/);
    t.regex(info.public_key, /^[0-9a-f]{64}$/);
    t.is(info.source, 'EVIDENCE_KEY');
    const text = await cli(['keys'], env);
    t.false((r.stdout + text.stdout + text.stderr).includes(EVIDENCE_SEED_HEX), 'the seed is never printed');
    t.regex(text.stdout, new RegExp(info.public_key));
    const missing = await cli(['keys'], { DATA_DIR: dataDir });
    t.is(missing.code, 2, 'no key configured and no key file: nothing is generated');
    t.regex(missing.stderr, /no evidence key/);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

const pgUrl = requiredServerUrl(test as TestFn, 'PG_TEST_URL', 'operator CLI on PostgreSQL', { requiredInCi: true });
if (pgUrl) suite('postgres', postgresStore(pgUrl));
