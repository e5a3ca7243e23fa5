import test from 'ava';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, moneyWorld, postQuote, type MoneyWorld } from '../support/money-env.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { assertNoSecretsLogged } from '../support/secrets.js';

// The service runs in its own process (the devnet stays up in this one); it is SIGKILLed at a
// test-only crash point, restarted on the same store, and the buyer retries the same PAYMENT-SIGNATURE.

let w: MoneyWorld;
const claims: string[] = [];
const paymentHeaders: string[] = [];
let processLogs = '';
const running: ServiceProcess[] = [];
test.before(async () => {
  w = await moneyWorld();
});
test.after.always(async () => {
  for (const p of running) await p.kill9();
  await w?.close();
});

const start = async (crashAt?: string) => {
  const p = await startServiceProcess(
    { ...w.env, NODE_ENV: 'test', ...(crashAt ? { TEST_CRASH_AT: crashAt } : {}) },
    (s) => {
      processLogs += s;
    },
  );
  running.push(p);
  return p;
};

for (const [point, transfersAtCrash] of [
  ['after-checkpoint', 0],
  ['after-settle', 1],
] as const) {
  test.serial(`SIGKILL ${point}: restart and retry deliver the report with exactly one transfer`, async (t) => {
    const buyer = w.devnet.buyers[point === 'after-checkpoint' ? 0 : 1]!;
    const first = await start(point);
    const q = (
      await postQuote(first.url, { resource: DECLARED, purpose: 'search', tier: 'fresh', max_total_micro: '20000' })
    ).body;
    claims.push(q.claim_token);
    const offer = await getReport(first.url, q.report_url, { 'x-service-claim': q.claim_token });
    t.is(offer.status, 402);
    const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
    paymentHeaders.push(header);
    const before = await w.devnet.balanceOf(buyer.address);

    await t.throwsAsync(
      getReport(first.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header }),
    );
    const exit = await first.exited;
    t.is(exit.signal, 'SIGKILL', 'the service died at the crash point');
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, transfersAtCrash);

    const second = await start();
    const retry = await getReport(second.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': header,
    });
    t.is(retry.status, 200, retry.text);
    t.is(retry.body.report.purchase_id, q.purchase_id);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 1, 'exactly one transfer on chain');
    t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);
    t.is(
      retry.body.payment_settlement.transaction,
      (await w.devnet.transfers(buyer.address, w.devnet.payTo))[0]!.transaction,
    );

    // And the claim alone now re-reads the same stored delivery.
    const reread = await getReport(second.url, q.report_url, { 'x-service-claim': q.claim_token });
    t.is(reread.text, retry.text);
    await second.stop();
  });
}

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, processLogs, { claims, paymentHeaders });
});
