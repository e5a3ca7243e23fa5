import test from 'ava';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, moneyWorld, postQuote, type MoneyWorld } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';

// A checkpointed authorization whose window passes unsettled is never retried blindly, deleted or
// overwritten: recovery marks it LockStuck and it appears on the operator investigation queue.

let w: MoneyWorld;
let offset = 0;
const claims: string[] = [];
const paymentHeaders: string[] = [];
class SimulatedCrash extends Error {}
let crashOnce = true;

test.before(async () => {
  w = await moneyWorld();
  await w.start({
    now: () => new Date(Date.now() + offset),
    crashAt: (point) => { if (point === 'after-checkpoint' && crashOnce) { crashOnce = false; throw new SimulatedCrash('simulated crash after checkpoint'); } },
  });
});
test.after.always(async () => { await w?.close(); });

test.serial('window passed unsettled → LockStuck on the investigation queue, nothing charged, retry refused', async (t) => {
  const q = (await postQuote(w.url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' })).body;
  claims.push(q.claim_token);
  const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  const buyer = w.devnet.buyers[3]!;
  const before = await w.devnet.balanceOf(buyer.address);
  const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
  paymentHeaders.push(header);
  const crashed = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header });
  t.is(crashed.status, 500, 'the simulated crash interrupted the request after the checkpoint');

  offset = 400_000; // past validBefore (maxTimeoutSeconds 300)
  await w.service!.recover();
  const stream = await w.service!.store.readStream(`purchase-${q.purchase_id}`);
  t.deepEqual(stream.map((e) => e.type), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck']);
  t.is((stream.at(-1)!.data as { reason: string }).reason, 'WINDOW_PASSED_UNSETTLED');
  const stuckData = stream.at(-1)!.data as { tried: unknown; since?: string };
  t.deepEqual(stuckData.tried, ['read_authorization_state', 'check_validity_window'], 'tried lists the steps taken');
  t.is(stuckData.since, (stream[2]!.data as { at: string }).at, 'stuck since the checkpoint');

  const retry = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header });
  t.is(retry.status, 409);
  t.is(retry.body.error.code, 'PURCHASE_HELD');
  t.is(await w.devnet.balanceOf(buyer.address), before);
  t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 0);

  const queue = await w.service!.investigationQueue.waitFor(stream.at(-1)!.position);
  const item = queue.items[q.purchase_id]!;
  t.is(item.kind, 'lock_stuck');
  t.is(item.reason, 'WINDOW_PASSED_UNSETTLED');
  t.deepEqual(item.history.map((h) => h.type), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck']);
  t.false(JSON.stringify(queue).includes('sealed'), 'the sealed authorization is not copied into the queue');
  const view = await w.service!.reportView.waitFor(stream.at(-1)!.position);
  t.is(view[q.purchase_id]!.status, 'lock_stuck');

  // Both read models are rebuildable from the events alone.
  const viewBefore = JSON.stringify(w.service!.reportView.view());
  const queueBefore = JSON.stringify(w.service!.investigationQueue.view());
  await w.service!.reportView.rebuild();
  await w.service!.investigationQueue.rebuild();
  t.is(JSON.stringify(w.service!.reportView.view()), viewBefore);
  t.is(JSON.stringify(w.service!.investigationQueue.view()), queueBefore);

  // A later recovery pass leaves it exactly as it is.
  await w.service!.recover();
  t.is((await w.service!.store.readStream(`purchase-${q.purchase_id}`)).length, 4);
});

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
