import test from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { Settlement } from '../../src/payment/settlement/settlement.js';
import { verifyAuthorization } from '../../src/payment/verify-authorization.js';
import type { AuthorizationRefusalCode } from '../../src/payment/authorization-refusals.js';
import { BASE_SEPOLIA_USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';
import { flakyRpc } from './support/flaky-rpc.js';
import { paymentDevnet, type PaymentDevnet } from './support/payment-devnet.js';
import { PRICE, nonceFor, offer, pay, stockClientPayment, type PayOver } from './support/offer.js';

// The `self` backend on the real devnet (Hardhat EDR, Circle's FiatTokenV2_2 at the Base USDC address):
// real signatures, real transferWithAuthorization, real balances.

let d: PaymentDevnet;
let self: Settlement;
let n = 0;
const key = () => `purchase-key-${++n}-${Date.now()}`;
test.before(async () => {
  d = await paymentDevnet();
  self = d.selfSettlement();
});
test.after.always(async () => {
  await d?.stop();
});

/** What the money path does before anything is stored: our checks, then the facilitator's verify, then settle. */
async function redeem(payload: PaymentPayload, nonce: Hex, req = offer(d.payTo)) {
  const checked = await verifyAuthorization({
    payload,
    requirements: req,
    expectedNonce: nonce,
    maxTotalMicro: '1000000',
    settlementWindowSeconds: 68,
    now: new Date(),
  });
  if (!checked.ok) return { refused: checked.code };
  return { settled: await self.settle(payload as never, req as never) };
}

test.serial(
  'a bound-nonce authorization settles once: exact amount moves, authorizationState flips, the transfer is found',
  async (t) => {
    const buyer = d.buyers[0]!;
    const req = offer(d.payTo);
    const nonce = nonceFor('https://pub.example/articles/one', key());
    const payload = await pay(buyer.privateKey, req, nonce);
    const [buyerBefore, payToBefore] = [await d.balanceOf(buyer.address), await d.balanceOf(d.payTo)];
    t.false(await self.authorizationState(buyer.address, nonce));
    t.is(await self.findTransfer({ payer: buyer.address, nonce }), undefined);

    const verified = await self.verify(payload as never, req as never);
    t.true(verified.isValid, verified.invalidReason);
    const r = await redeem(payload, nonce, req);
    if (r.settled?.kind !== 'success') {
      t.fail(JSON.stringify(r));
      return;
    }
    t.regex(r.settled.transaction, /^0x[0-9a-f]{64}$/);
    t.is(r.settled.payer, buyer.address);
    t.is(r.settled.amount, PRICE);
    t.is(typeof r.settled.blockNumber, 'bigint');

    t.is(await d.balanceOf(buyer.address), buyerBefore - BigInt(PRICE));
    t.is(await d.balanceOf(d.payTo), payToBefore + BigInt(PRICE));
    t.true(await self.authorizationState(buyer.address, nonce));
    t.deepEqual(await self.findTransfer({ payer: buyer.address, nonce }), {
      transaction: r.settled.transaction,
      from: buyer.address,
      to: d.payTo,
      value: BigInt(PRICE),
      block: r.settled.blockNumber!,
      asset: d.usdc,
      network: 'eip155:8453', // what the chain shows: the token that moved, the chain it was read from
    });
    t.deepEqual(
      (await d.transfers(buyer.address, d.payTo)).map((x) => x.transaction),
      [r.settled.transaction],
    );
    // The log search honours fromBlock: from the transfer's block it finds it, from the next block it does not.
    t.is(
      (await self.findTransfer({ payer: buyer.address, nonce, fromBlock: r.settled.blockNumber! }))?.transaction,
      r.settled.transaction,
    );
    t.is(await self.findTransfer({ payer: buyer.address, nonce, fromBlock: r.settled.blockNumber! + 1n }), undefined);
    t.true((await self.blockNumber()) >= r.settled.blockNumber!);

    // Replaying the very same authorization: refused by verify and by settle, nothing moves again.
    const again = await self.verify(payload as never, req as never);
    t.false(again.isValid);
    t.is(again.invalidReason, 'invalid_exact_evm_nonce_already_used');
    const replay = await self.settle(payload as never, req as never);
    // Refused by the relayer's simulation at the pending block: nothing sent.
    t.deepEqual(replay, { kind: 'failed', reason: 'invalid_exact_evm_nonce_already_used', reverted: 'simulated' });
    t.is(await d.balanceOf(buyer.address), buyerBefore - BigInt(PRICE));
    t.is((await d.transfers(buyer.address, d.payTo)).length, 1);
  },
);

test.serial(
  'an unmodified @x402/evm client (random nonce) would verify with the facilitator, but is refused before settlement',
  async (t) => {
    const buyer = d.buyers[1]!;
    const req = offer(d.payTo);
    const payload = await stockClientPayment(buyer.privateKey, req);
    t.true(
      (await self.verify(payload as never, req as never)).isValid,
      'the facilitator itself never checks nonce contents',
    );
    const before = await d.balanceOf(buyer.address);
    const r = await redeem(payload, nonceFor('https://pub.example/articles/one', key()), req);
    t.deepEqual(r, { refused: 'NONCE_NOT_BOUND' });
    t.false(await self.authorizationState(buyer.address, payload.payload.authorization.nonce));
    t.is(await d.balanceOf(buyer.address), before);
  },
);

const now = () => Math.floor(Date.now() / 1000);
const wrong: [string, PayOver, AuthorizationRefusalCode][] = [
  ['wrong recipient', { to: '0x000000000000000000000000000000000000dEaD' }, 'RECIPIENT_MISMATCH'],
  ['lower amount', { value: '19999' }, 'AMOUNT_BELOW_PRICE'],
  ['higher amount', { value: '20001' }, 'AMOUNT_ABOVE_PRICE'],
  ['other network', { accepted: { network: 'eip155:84532' }, domain: { chainId: 84532 } }, 'NETWORK_MISMATCH'],
  [
    'other asset',
    { accepted: { asset: BASE_SEPOLIA_USDC }, domain: { verifyingContract: BASE_SEPOLIA_USDC } },
    'ASSET_MISMATCH',
  ],
  ['expired window', { validBefore: String(now() - 5) }, 'PAYMENT_WINDOW_EXPIRED'],
  ['signature by another key', { signerKey: generatePrivateKey() }, 'SIGNATURE_INVALID'],
];

test.serial('each wrong payment is refused with its own code and no balance changes', async (t) => {
  const buyer = d.buyers[2]!;
  const before = [await d.balanceOf(buyer.address), await d.balanceOf(d.payTo)];
  const codes = new Set<string>();
  for (const [name, over, code] of wrong) {
    const nonce = nonceFor('https://pub.example/articles/one', key());
    const r = await redeem(await pay(buyer.privateKey, offer(d.payTo), nonce, over), nonce);
    t.deepEqual(r, { refused: code }, name);
    t.false(await self.authorizationState(buyer.address, nonce), name);
    codes.add(code);
  }
  t.is(codes.size, wrong.length);
  t.deepEqual([await d.balanceOf(buyer.address), await d.balanceOf(d.payTo)], before);
  t.is((await d.transfers(buyer.address, d.payTo)).length, 0);
});

test.serial(
  'an empty wallet passes our checks, fails the facilitator verify, and settle is a definite failure',
  async (t) => {
    const poor = generatePrivateKey();
    const req = offer(d.payTo);
    const nonce = nonceFor('https://pub.example/articles/one', key());
    const payload = await pay(poor, req, nonce);
    const v = await self.verify(payload as never, req as never);
    t.false(v.isValid);
    t.is(v.invalidReason, 'invalid_exact_evm_insufficient_balance');
    const r = await redeem(payload, nonce, req);
    t.deepEqual(r.settled, { kind: 'failed', reason: 'invalid_exact_evm_insufficient_balance', reverted: 'simulated' });
    t.false(await self.authorizationState(privateKeyToAccount(poor).address, nonce));
  },
);

test.serial('an RPC answer lost after broadcast is AMBIGUOUS; the chain then shows exactly one transfer', async (t) => {
  const buyer = d.buyers[3]!;
  const proxy = await flakyRpc(d.rpcUrl, 'dropSendAnswer');
  try {
    const flaky = d.selfSettlement({ rpcUrl: proxy.url });
    const req = offer(d.payTo);
    const nonce = nonceFor('https://pub.example/articles/one', key());
    const payload = await pay(buyer.privateKey, req, nonce);
    const before = await d.balanceOf(buyer.address);
    const outcome = await flaky.settle(payload as never, req as never);
    t.is(outcome.kind, 'ambiguous');
    t.is(proxy.sends, 1, 'the transaction was sent exactly once');
    // The money path now decides from the chain, never by signing or submitting anew.
    t.true(await self.authorizationState(buyer.address, nonce));
    const found = await self.findTransfer({ payer: buyer.address, nonce });
    t.is(found?.value, BigInt(PRICE));
    t.is(found?.to, d.payTo);
    t.is(await d.balanceOf(buyer.address), before - BigInt(PRICE));
    t.is((await d.transfers(buyer.address, d.payTo)).length, 1);
  } finally {
    await proxy.close();
  }
});

test.serial(
  'a receipt that never comes is AMBIGUOUS with the transaction hash, which the chain confirms',
  async (t) => {
    const buyer = d.buyers[3]!;
    const proxy = await flakyRpc(d.rpcUrl, 'hideReceipts');
    try {
      const slow = d.selfSettlement({ rpcUrl: proxy.url, confirmationTimeoutMs: 1500 });
      const req = offer(d.payTo);
      const nonce = nonceFor('https://pub.example/articles/two', key());
      const payload = await pay(buyer.privateKey, req, nonce);
      const outcome = await slow.settle(payload as never, req as never);
      if (outcome.kind !== 'ambiguous') {
        t.fail(JSON.stringify(outcome));
        return;
      }
      t.is(outcome.reason, 'settlement_pending');
      t.regex(outcome.transaction ?? '', /^0x[0-9a-f]{64}$/);
      t.is((await self.findTransfer({ payer: buyer.address, nonce }))?.transaction, outcome.transaction);
    } finally {
      await proxy.close();
    }
  },
);

test.serial(
  'devnet block time follows the wall clock (the facilitator checks validBefore against Date.now())',
  async (t) => {
    // A block mined now, not whenever the last test happened to mine one (a busy machine can be seconds behind).
    const rpc = (method: string, params: unknown[]) =>
      fetch(d.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    // Bracketed by the wall clock read before and after the mining, however long the node took on a busy
    // machine; the 5 s are the node's own slack (a block's timestamp is at least its parent's plus one).
    const before = Math.floor(Date.now() / 1000);
    await (await rpc('evm_mine', [])).arrayBuffer();
    const after = Math.ceil(Date.now() / 1000);
    const res = await rpc('eth_getBlockByNumber', ['latest', false]);
    const block = ((await res.json()) as { result: { timestamp: Hex } }).result;
    const mined = Number(BigInt(block.timestamp));
    t.true(mined >= before - 5 && mined <= after + 5, `mined at ${mined}, between ${before} and ${after}`);
  },
);
