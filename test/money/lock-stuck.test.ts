import test from 'ava';
import { movePurchase } from '../../src/operator/move.js';
import { queueItems, reportRow } from '../../projections/queries/purchases.js';
import { recoveryCandidates } from '../../projections/queries/recovery-candidates.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';

// A checkpointed authorization whose window passes unsettled is never retried blindly, deleted or
// overwritten: recovery marks it LockStuck and it appears on the operator investigation queue.

let offset = 0;
const claims: string[] = [];
const paymentHeaders: string[] = [];
class SimulatedCrash extends Error {}
let crashOnce = true;

const w = useWorld({
  service: {
    now: () => new Date(Date.now() + offset),
    crashAt: (point) => {
      if (point === 'after-checkpoint' && crashOnce) {
        crashOnce = false;
        throw new SimulatedCrash('simulated crash after checkpoint');
      }
    },
  },
});

test.serial(
  'window passed unsettled → LockStuck on the investigation queue, nothing charged, retry refused',
  async (t) => {
    const q = (
      await postQuote(w.url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' })
    ).body;
    claims.push(q.claim_token);
    const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
    const buyer = w.devnet.buyers[3]!;
    const before = await w.devnet.balanceOf(buyer.address);
    const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
    paymentHeaders.push(header);
    const crashed = await getReport(w.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': header,
    });
    t.is(crashed.status, 500, 'the simulated crash interrupted the request after the checkpoint');

    offset = 400_000; // past validBefore (maxTimeoutSeconds 300)
    await w.service!.recover();
    const stream = await w.service!.store.readStream(`purchase-${q.purchase_id}`);
    t.deepEqual(
      stream.map((e) => e.type),
      ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck'],
    );
    t.is((stream.at(-1)!.data as { reason: string }).reason, 'WINDOW_PASSED_UNSETTLED');
    const stuckData = stream.at(-1)!.data as { tried: unknown; since?: string };
    t.deepEqual(stuckData.tried, ['read_authorization_state', 'check_validity_window'], 'tried lists the steps taken');
    t.is(stuckData.since, (stream[2]!.data as { at: string }).at, 'stuck since the checkpoint');

    const retry = await getReport(w.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': header,
    });
    t.is(retry.status, 409);
    t.is(retry.body.error.code, 'PURCHASE_HELD');
    t.is(await w.devnet.balanceOf(buyer.address), before);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 0);

    await w.service!.readModels.waitFor(stream.at(-1)!.position);
    const queue = await queueItems(w.service!.readModels.db);
    const item = queue.find((i) => i.purchase_id === q.purchase_id)!;
    t.is(item.kind, 'lock_stuck');
    t.is(item.reason, 'WINDOW_PASSED_UNSETTLED');
    t.is(item.locked_from, 'checkpointed');
    t.false(JSON.stringify(queue).includes('sealed'), 'the sealed authorization is not copied into the queue');
    t.is((await reportRow(w.service!.readModels.db, q.purchase_id))?.status, 'lock_stuck');

    // A later recovery pass leaves it exactly as it is.
    await w.service!.recover();
    t.is((await w.service!.store.readStream(`purchase-${q.purchase_id}`)).length, 4);
    stuckId = q.purchase_id;
    stuckBuyer = buyer.address;
    stuckBalance = before;
  },
);

let stuckId = '';
let stuckBuyer = '' as `0x${string}`;
let stuckBalance = 0n;

test.serial(
  'operator moves it to retry_settlement → the recovery worker settles and delivers it, no buyer retry',
  async (t) => {
    t.truthy(stuckId, 'the previous test left a stuck purchase');
    // The operator found the authorization still valid (here: the service clock was only ahead), and retries.
    offset = 0;
    const stream = `purchase-${stuckId}`;
    const moved = await movePurchase(
      w.service!.store,
      stream,
      {
        target: 'retry_settlement',
        note: 'authorization still valid on chain',
        operator: 'ops@example',
        at: new Date().toISOString(),
      },
      new Date(),
    );
    t.true('moved' in moved, JSON.stringify(moved));
    // No buyer request from here on: the recovery worker finds it through the report view's index.
    await w.service!.readModels.caughtUp();
    t.deepEqual(await recoveryCandidates(w.service!.readModels.db), [stuckId]);
    await w.service!.recover();
    const types = (await w.service!.store.readStream(stream)).map((e) => e.type);
    t.deepEqual(types, [
      'Quoted',
      'Offered',
      'AuthorizationCheckpointed',
      'LockStuck',
      'OperatorMoved',
      'SettlementBroadcast',
      'Settled',
      'Delivered',
    ]);
    t.is(await w.devnet.balanceOf(stuckBuyer), stuckBalance - 20_000n, 'charged exactly once');
    await w.service!.readModels.caughtUp();
    t.is((await reportRow(w.service!.readModels.db, stuckId))?.status, 'delivered');
    t.deepEqual(await queueItems(w.service!.readModels.db), []);
    t.deepEqual(await recoveryCandidates(w.service!.readModels.db), []);
  },
);

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
