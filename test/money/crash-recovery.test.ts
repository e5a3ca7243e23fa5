import test from 'ava';
import { getReport } from '../support/money-env.js';
import { useCrashWorld } from './support/crash-world.js';

// The service runs in its own process (the devnet stays up in this one); it is SIGKILLed at a
// test-only crash point, restarted on the same store, and the buyer retries the same PAYMENT-SIGNATURE.

const crash = useCrashWorld();

for (const [point, transfersAtCrash] of [
  ['after-checkpoint', 0],
  ['after-settle', 1],
] as const) {
  test.serial(`SIGKILL ${point}: restart and retry deliver the report with exactly one transfer`, async (t) => {
    const w = crash.world();
    const buyer = w.devnet.buyers[point === 'after-checkpoint' ? 0 : 1]!;
    const first = await crash.start({ TEST_CRASH_AT: point });
    const paid = await crash.paidOffer(first.url, buyer);
    const { q } = paid;
    const before = await w.devnet.balanceOf(buyer.address);

    await t.throwsAsync(crash.redeem(first.url, paid));
    const exit = await first.exited;
    t.is(exit.signal, 'SIGKILL', 'the service died at the crash point');
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, transfersAtCrash);

    const second = await crash.start();
    const retry = await crash.redeem(second.url, paid);
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
  crash.assertNoSecretsLogged(t);
});
