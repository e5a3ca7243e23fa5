import test from 'ava';
import { paymentDevnet, type PaymentDevnet } from './support/payment-devnet.js';
import { startFacilitatorServer, type FacilitatorServer } from '../../src/devnet/facilitator-server.js';
import { createSettlement } from '../../src/payment/settlement/create.js';
import { createRelayerFacilitator, type RelayerFacilitator } from '../../src/payment/settlement/relayer-facilitator.js';
import type { Settlement } from '../../src/payment/settlement/settlement.js';
import { verifyAuthorization } from '../../src/payment/verify-authorization.js';
import { BASE_USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import { PRICE, nonceFor, offer, pay } from './support/offer.js';

// The `facilitator` backend across a real HTTP boundary: a real x402 facilitator server (the relayer
// facilitator with its own relayer, the official @x402/core facilitator's /supported) on loopback, reached
// through HTTPFacilitatorClient; recovery reads go to the devnet RPC directly. The official @x402/evm verify
// is asked beside it and must agree.

let d: PaymentDevnet;
let server: FacilitatorServer;
let remote: Settlement;
/** The official @x402/core facilitator with the @x402/evm exact scheme, for its verify. */
let official: RelayerFacilitator;
test.before(async () => {
  d = await paymentDevnet();
  official = createRelayerFacilitator({
    rpcUrl: d.rpcUrl,
    relayerPrivateKey: d.facilitatorRelayer.privateKey,
    network: d.network,
  });
  server = await startFacilitatorServer({
    rpcUrl: d.rpcUrl,
    relayerPrivateKey: d.facilitatorRelayer.privateKey,
    network: d.network,
  });
  remote = createSettlement({
    settlement: 'facilitator',
    facilitatorUrl: server.url,
    rpcUrl: d.rpcUrl,
    relayerPrivateKey: undefined,
    network: 'eip155:8453',
    usdcAsset: BASE_USDC,
  });
});
test.after.always(async () => {
  await server?.close();
  await d?.stop();
});

const ethOf = async (address: string) => {
  const res = await fetch(d.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, 'latest'] }),
  });
  return BigInt(((await res.json()) as { result: string }).result);
};

test.serial('the facilitator advertises exact on eip155:8453', async (t) => {
  const supported = (await (await fetch(`${server.url}/supported`)).json()) as {
    kinds: { scheme: string; network: string; x402Version: number }[];
  };
  t.true(supported.kinds.some((k) => k.scheme === 'exact' && k.network === 'eip155:8453' && k.x402Version === 2));
});

test.serial(
  'a bound-nonce payment settles through the remote facilitator; its relayer pays the gas; replay is refused',
  async (t) => {
    t.is(remote.kind, 'facilitator');
    const buyer = d.buyers[0]!;
    const req = offer(d.payTo);
    const nonce = nonceFor('https://pub.example/articles/one', `remote-${Date.now()}`);
    const payload = await pay(buyer.privateKey, req, nonce);
    const checked = await verifyAuthorization({
      payload,
      requirements: req,
      expectedNonce: nonce,
      maxTotalMicro: PRICE,
      settlementWindowSeconds: 68,
      now: new Date(),
    });
    t.true(checked.ok);
    const [buyerBefore, payToBefore] = [await d.balanceOf(buyer.address), await d.balanceOf(d.payTo)];
    const [gasBefore, ourRelayerBefore] = [await ethOf(d.facilitatorRelayer.address), await ethOf(d.relayer.address)];

    t.true((await remote.verify(payload as never, req as never)).isValid);
    // The server verifies as the `self` backend does; the official @x402/evm verify agrees on our payments.
    t.true((await official.facilitator.verify(payload as never, req as never)).isValid);
    const outcome = await remote.settle(payload as never, req as never);
    if (outcome.kind !== 'success') {
      t.fail(JSON.stringify(outcome));
      return;
    }
    t.is(outcome.payer, buyer.address);
    t.is(outcome.amount, PRICE);
    t.is(await d.balanceOf(buyer.address), buyerBefore - BigInt(PRICE));
    t.is(await d.balanceOf(d.payTo), payToBefore + BigInt(PRICE));
    t.true(await remote.authorizationState(buyer.address, nonce));
    const found = await remote.findTransfer({ payer: buyer.address, nonce });
    t.deepEqual(found, {
      transaction: outcome.transaction,
      from: buyer.address,
      to: d.payTo,
      value: BigInt(PRICE),
      block: outcome.blockNumber!,
      asset: d.usdc,
      network: 'eip155:8453',
    });
    t.deepEqual(outcome.transfer, found, 'the settle read the transfer from its receipt: the walk need not ask again');
    t.true((await ethOf(d.facilitatorRelayer.address)) < gasBefore, 'the facilitator paid the gas');
    t.is(await ethOf(d.relayer.address), ourRelayerBefore, 'the service relayer was not used');

    const replayVerify = await remote.verify(payload as never, req as never);
    t.deepEqual(replayVerify, {
      isValid: false,
      invalidReason: 'invalid_exact_evm_nonce_already_used',
      payer: buyer.address,
    });
    t.like(await official.facilitator.verify(payload as never, req as never), {
      isValid: false,
      invalidReason: 'invalid_exact_evm_nonce_already_used',
    });
    t.deepEqual(await remote.settle(payload as never, req as never), {
      kind: 'failed',
      reason: 'invalid_exact_evm_nonce_already_used',
    });
    t.is((await d.transfers(buyer.address, d.payTo)).length, 1);
  },
);

test.serial(
  'an unreachable facilitator: verify is not valid, settle is AMBIGUOUS (the request may have been acted on)',
  async (t) => {
    const gone = createSettlement({
      settlement: 'facilitator',
      facilitatorUrl: 'http://127.0.0.1:9',
      rpcUrl: d.rpcUrl,
      relayerPrivateKey: undefined,
      network: 'eip155:8453',
      usdcAsset: BASE_USDC,
    });
    const req = offer(d.payTo);
    const payload = await pay(
      d.buyers[1]!.privateKey,
      req,
      nonceFor('https://pub.example/articles/one', `gone-${Date.now()}`),
    );
    const v = await gone.verify(payload as never, req as never);
    t.false(v.isValid);
    t.regex(v.invalidReason ?? '', /^facilitator_unavailable:/);
    const s = await gone.settle(payload as never, req as never);
    t.is(s.kind, 'ambiguous');
  },
);

test.serial('createSettlement refuses incomplete configuration', (t) => {
  t.throws(
    () =>
      createSettlement({
        settlement: 'facilitator',
        facilitatorUrl: undefined,
        rpcUrl: d.rpcUrl,
        relayerPrivateKey: undefined,
        network: 'eip155:8453',
        usdcAsset: BASE_USDC,
      }),
    { message: /FACILITATOR_URL/ },
  );
  t.throws(
    () =>
      createSettlement({
        settlement: 'self',
        facilitatorUrl: undefined,
        rpcUrl: d.rpcUrl,
        relayerPrivateKey: undefined,
        network: 'eip155:8453',
        usdcAsset: BASE_USDC,
      }),
    { message: /RELAYER_PRIVATE_KEY/ },
  );
  t.throws(
    () =>
      createSettlement({
        settlement: 'self',
        facilitatorUrl: undefined,
        rpcUrl: undefined,
        relayerPrivateKey: 'ab'.repeat(32),
        network: 'eip155:8453',
        usdcAsset: BASE_USDC,
      }),
    { message: /RPC_URL/ },
  );
  t.is(
    createSettlement({
      settlement: 'self',
      facilitatorUrl: undefined,
      rpcUrl: d.rpcUrl,
      relayerPrivateKey: d.relayer.privateKey.slice(2),
      network: 'eip155:8453',
      usdcAsset: BASE_USDC,
    }).kind,
    'self',
  );
});
