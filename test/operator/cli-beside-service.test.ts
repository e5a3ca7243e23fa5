import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test from 'ava';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { cli, deliveredPurchase, stuckPurchase } from '../ops/seed.js';
import { requestRefund } from './seed-refund.js';
import { serviceBeside, type ServiceBeside } from './service-beside.js';

// `npm run ops` beside `npm start` on the embedded store: every command reaches the running service
// through its operator listener instead of failing StoreLocked, with the output and exit codes of a
// run on a stopped service (the same command code runs on the service's open store).

let world: ServiceBeside & { seeded: { stuck: string; delivered: string } };

test.before(async () => {
  world = await serviceBeside(async (store) => {
    const stuck = await stuckPurchase(store);
    const delivered = await deliveredPurchase(store);
    await requestRefund(store, delivered);
    return { stuck, delivered };
  });
});
test.after.always(async () => {
  await world?.close();
});

test.serial(
  'queue, purchases, show, audit work while the service runs; ids are 12-character prefixes in tables',
  async (t) => {
    const { stuck, delivered } = world.seeded;
    const q = await cli(['queue', '--json'], world.opsEnv);
    t.is(q.code, 0, q.stderr);
    t.deepEqual(
      JSON.parse(q.stdout).items.map((i: { purchase_id: string }) => i.purchase_id),
      [stuck],
    );
    t.notRegex(q.stderr, /StoreLocked/);
    const text = await cli(['queue'], world.opsEnv);
    t.is(text.code, 0, text.stderr);
    t.regex(text.stdout, /lock_stuck\s+WINDOW_PASSED_UNSETTLED/);

    const list = await cli(['purchases'], world.opsEnv);
    t.is(list.code, 0, list.stderr);
    t.true(list.stdout.includes(stuck.slice(0, 12)) && !list.stdout.includes(stuck), 'the table shows prefixes');
    const json = await cli(['purchases', '--status', 'delivered', '--json'], world.opsEnv);
    t.deepEqual(
      JSON.parse(json.stdout).purchases.map((p: { purchase_id: string }) => p.purchase_id),
      [delivered],
    );

    const shown = await cli(['show', delivered.slice(0, 10)], world.opsEnv);
    t.is(shown.code, 0, shown.stderr);
    t.regex(shown.stdout, new RegExp(`purchase ${delivered}`));
    t.regex(shown.stdout, /refund: requested/);
    t.false(/sealed|claim_token|payment_signature/i.test(shown.stdout), 'no secret in show');

    const audit = await cli(['audit'], world.opsEnv);
    t.is(audit.code, 0, audit.stdout + audit.stderr);
    t.regex(audit.stdout, /audited 2 purchase stream\(s\).*no violations/);
    const unknown = await cli(['show', 'ffff0000'], world.opsEnv);
    t.is(unknown.code, 1, 'a refusal keeps its exit code through the listener');
    t.regex(unknown.stderr, /refused NO_SUCH_PURCHASE/);
    const usage = await cli(['queue', '--all'], world.opsEnv);
    t.is(usage.code, 2, 'a usage error keeps its exit code');
  },
);

test.serial(
  'move and refunds review act through the running service; each event names the operator and the note',
  async (t) => {
    const { stuck, delivered } = world.seeded;
    const moved = await cli(
      ['move', stuck.slice(0, 12), '--to', 'closed_no_charge', '--note', 'nonce unused on chain', '--operator', 'ana'],
      world.opsEnv,
    );
    t.is(moved.code, 0, moved.stderr);
    t.regex(moved.stdout, /lock_stuck → closed_no_charge .* by ana/);
    const again = await cli(
      ['move', stuck, '--to', 'retry_settlement', '--note', 'again', '--operator', 'ana'],
      world.opsEnv,
    );
    t.is(again.code, 1);
    t.regex(again.stderr, /refused PURCHASE_CLOSED/);

    const open = await cli(['refunds', '--json'], world.opsEnv);
    t.deepEqual(
      JSON.parse(open.stdout).refunds.map((r: { purchase_id: string }) => r.purchase_id),
      [delivered],
    );
    const reviewed = await cli(
      [
        'refunds',
        'review',
        delivered.slice(0, 12),
        '--decision',
        'approve',
        '--note',
        'report never fetched',
        '--operator',
        'ben',
      ],
      world.opsEnv,
    );
    t.is(reviewed.code, 0, reviewed.stderr);
    t.regex(reviewed.stdout, /requested → approved by ben/);

    const queue = await cli(['queue'], world.opsEnv);
    t.regex(queue.stdout, /the investigation queue is empty/);

    const events = await world.stopAndRead(streamName(stuck));
    t.like(events.at(-1), { type: 'OperatorMoved', data: { note: 'nonce unused on chain', operator: 'ana' } });
    // With the service stopped the CLI opens the store itself: the same command, the same answer.
    const local = await cli(['refunds', '--json'], world.opsEnv);
    t.is(local.code, 0, local.stderr);
    t.deepEqual(
      JSON.parse(local.stdout).refunds.map((r: { purchase_id: string; status: string }) => [r.purchase_id, r.status]),
      [[delivered, 'approved']],
    );
    const shownLocal = await cli(['show', delivered.slice(0, 12), '--json'], world.opsEnv);
    t.is(JSON.parse(shownLocal.stdout).refund.status, 'approved');
  },
);

test('queue --data-dir <empty dir> exits 2, says there is no store and creates nothing', async (t) => {
  const empty = await mkdtemp(path.join(tmpdir(), 'rights-empty-'));
  t.teardown(() => rm(empty, { recursive: true, force: true }));
  for (const command of [['queue'], ['purchases', '--json'], ['show', 'abcd1234'], ['audit'], ['refunds']]) {
    const r = await cli([...command, '--data-dir', empty], { EVIDENCE_KEY: '2a'.repeat(32) });
    t.is(r.code, 2, `${command.join(' ')}: ${r.stdout}${r.stderr}`);
    t.regex(r.stderr, /NoStore: there is no event store .* nothing was created/);
  }
  t.deepEqual(await readdir(empty), [], 'the directory stays empty');
});
