import test from 'ava';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { startFacilitatorServer, type FacilitatorServer } from '../../src/devnet/facilitator-server.js';
import { signPayment } from '../support/pay.js';
import { getReport, quoteAndOffer } from '../support/money-env.js';
import { useWorld } from '../support/world.js';

// The money path with SETTLEMENT=facilitator: the service settles through a real x402 facilitator
// server over HTTP (its own relayer pays the gas); the service holds no relayer key of its own.

let facilitator: FacilitatorServer;
const w = useWorld({ service: false });
test.before(async () => {
  facilitator = await startFacilitatorServer({
    rpcUrl: w.devnet.rpcUrl,
    relayerPrivateKey: w.devnet.facilitatorRelayer.privateKey,
    network: w.devnet.network,
  });
  // No RELAYER_PRIVATE_KEY: the facilitator backend must not need one.
  delete w.env.RELAYER_PRIVATE_KEY;
  await w.start({ env: { SETTLEMENT: 'facilitator', FACILITATOR_URL: facilitator.url } });
});
test.after.always(async () => {
  await facilitator?.close();
});

test.serial(
  'SETTLEMENT=facilitator: quote → 402 → pay → 200 moves exactly the price through the remote facilitator',
  async (t) => {
    const { q, paymentRequired: prHeader } = await quoteAndOffer(w.url);

    const buyer = w.devnet.buyers[0]!;
    const [buyerBefore, payToBefore] = [
      await w.devnet.balanceOf(buyer.address),
      await w.devnet.balanceOf(w.devnet.payTo),
    ];
    const paid = await getReport(w.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': await signPayment(buyer.privateKey, prHeader),
    });
    t.is(paid.status, 200, paid.text);
    t.is(await w.devnet.balanceOf(buyer.address), buyerBefore - 20_000n);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore + 20_000n);
    const settle = decodePaymentResponseHeader(paid.headers.get('payment-response')!);
    t.true(settle.success);
    t.is(settle.transaction, paid.body.payment_settlement.transaction);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 1);

    // The checkpoint records a block read before verification; the settlement is at or after it.
    const stream = await w.service!.store.readStream(`purchase-${q.purchase_id}`);
    const checkpoint = stream.find((e) => e.type === 'AuthorizationCheckpointed')!.data as { from_block?: string };
    const settled = stream.find((e) => e.type === 'Settled')!.data as { block: string };
    t.regex(checkpoint.from_block ?? '', /^[0-9]+$/);
    t.true(BigInt(checkpoint.from_block!) <= BigInt(settled.block));
  },
);
