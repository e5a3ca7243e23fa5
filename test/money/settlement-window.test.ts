import test from 'ava';
import { createPublicClient, createWalletClient, http, parseAbi, parseGwei, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devnetChain } from '../../src/devnet/devnet.js';
import { signPayment } from '../support/pay.js';
import { getReport, quoteAndOffer } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';
import { buyerFor } from '../buyer/support/buyer-world.js';
import { decodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';
import { DECLARED } from '../support/publishers.js';

// Authorizations the relayer can settle in time (docs/decisions.md), on a devnet that mines every 2 s with
// the service polling at that pace. Asserted on counted things: the relayer's transactions (its account
// nonce), the purchase stream's events, the transfers the chain shows; never on how long anything took.
//   1. validBefore inside the settlement window: refused before anything is stored or sent; the same purchase
//      paid with enough time is delivered.
//   2. a payer whose USDC is already leaving (in the node's pool) when it pays: the simulation at the pending
//      block refuses it, nothing stored, nothing sent.
//   3. a payer who moves its USDC in the same block as the relayer's transfer (it outbids the relayer): the
//      transfer is mined and reverts, the purchase is held; after three such reverts its next payment is
//      refused before anything is stored or sent.

const BLOCK_MS = 2000;
const claims: string[] = [];
const paymentHeaders: string[] = [];
const w = useWorld({ devnet: { blockMs: BLOCK_MS } });
const erc20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);
const ELSEWHERE = privateKeyToAccount(`0x${'77'.repeat(32)}` as Hex).address;

const chain = () => devnetChain(w.devnet.rpcUrl);
const pub = () => createPublicClient({ chain: chain(), transport: http(w.devnet.rpcUrl) });
const relayerNonce = () => pub().getTransactionCount({ address: w.devnet.relayer.address, blockTag: 'pending' });
const streamTypes = async (purchaseId: string) =>
  (await w.service.store.readStream(`purchase-${purchaseId}`)).map((e) => e.type);
const rpc = (method: string, params: unknown[] = []) =>
  pub().request({ method: method as never, params: params as never });

async function offer() {
  const o = await quoteAndOffer(w.url);
  claims.push(o.q.claim_token);
  return o;
}

async function pay(o: Awaited<ReturnType<typeof offer>>, buyerKey: Hex, validBefore?: string) {
  const header = await signPayment(buyerKey, o.paymentRequired, validBefore ? { validBefore } : {});
  paymentHeaders.push(header);
  return getReport(w.url, o.q.report_url, { ...o.claim, 'payment-signature': header });
}

/**
 * Sends the buyer's whole USDC balance elsewhere (not waiting for it), with a priority fee that
 * outbids the relayer.
 */
async function moveAllUsdc(buyerKey: Hex): Promise<Hex> {
  const account = privateKeyToAccount(buyerKey);
  const wallet = createWalletClient({ account, chain: chain(), transport: http(w.devnet.rpcUrl) });
  const balance = await w.devnet.balanceOf(account.address);
  return wallet.writeContract({
    address: w.devnet.usdc,
    abi: erc20,
    functionName: 'transfer',
    args: [ELSEWHERE, balance],
    // No estimate: at the pending block the relayer's transfer may already have taken the price.
    gas: 100_000n,
    maxPriorityFeePerGas: parseGwei('100'),
    maxFeePerGas: parseGwei('200'),
  });
}

test.serial(
  'the window is published, a validBefore inside it is refused unsent, one with enough time delivers',
  async (t) => {
    const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as {
      payment: { settlement_window_seconds: number; max_timeout_seconds: number };
    };
    // Ten rounds of three 2 s blocks, one block and 6 s of margin.
    t.is(caps.payment.settlement_window_seconds, 68);
    t.true(caps.payment.max_timeout_seconds >= caps.payment.settlement_window_seconds + 60);

    const buyer = w.devnet.buyers[0]!;
    const o = await offer();
    const nonceBefore = await relayerNonce();
    const balanceBefore = await w.devnet.balanceOf(buyer.address);
    const now = Math.floor(Date.now() / 1000);
    for (const ahead of [8, caps.payment.settlement_window_seconds - 10]) {
      const refused = await pay(o, buyer.privateKey, String(now + ahead));
      t.is(refused.status, 402, refused.text);
      t.is(refused.body.error.code, 'PAYMENT_WINDOW_TOO_SHORT');
      t.regex(refused.body.error.message, /nothing was charged/);
    }
    t.deepEqual(await streamTypes(o.q.purchase_id), ['Quoted', 'Offered'], 'nothing was stored');
    t.is(await relayerNonce(), nonceBefore, 'the relayer sent nothing');

    const paid = await pay(o, buyer.privateKey);
    t.is(paid.status, 200, paid.text);
    t.deepEqual(await streamTypes(o.q.purchase_id), [
      'Quoted',
      'Offered',
      'AuthorizationCheckpointed',
      'SettlementBroadcast',
      'Settled',
      'Delivered',
    ]);
    t.is(await relayerNonce(), nonceBefore + 1, 'one transaction for the delivery');
    t.is(await w.devnet.balanceOf(buyer.address), balanceBefore - 20_000n, 'charged once, the price');
  },
);

test.serial(
  'a payer whose USDC is already leaving when it pays is refused by the pending simulation, unsent',
  async (t) => {
    const buyer = w.devnet.buyers[1]!;
    const o = await offer();
    const nonceBefore = await relayerNonce();
    // Not mined yet: the move waits in the node's pool for the next block.
    await rpc('evm_setIntervalMining', [0]);
    try {
      const move = await moveAllUsdc(buyer.privateKey);
      const r = await pay(o, buyer.privateKey);
      t.is(r.status, 402, r.text);
      t.is(r.body.error.code, 'PAYMENT_REJECTED');
      t.deepEqual(await streamTypes(o.q.purchase_id), ['Quoted', 'Offered'], 'nothing was stored');
      t.is(await relayerNonce(), nonceBefore, 'the relayer sent nothing');
      await rpc('evm_mine');
      t.is((await pub().getTransactionReceipt({ hash: move })).status, 'success');
    } finally {
      await rpc('evm_setIntervalMining', [BLOCK_MS]);
    }
    t.deepEqual(await w.devnet.transfers(buyer.address, w.devnet.payTo), [], 'no transfer to the seller');
  },
);

test.serial(
  'a payer who outbids the transfer in its block three times is refused, before anything is stored or sent',
  async (t) => {
    const buyer = w.devnet.buyers[2]!;
    const reverts: string[] = [];
    for (let i = 0; i < 3; i++) {
      await w.devnet.mint(buyer.address, 1_000_000n);
      const o = await offer();
      const nonceBefore = await relayerNonce();
      // Blocks only when the test mines one: the relayer's transfer and the buyer's move meet in one block.
      await rpc('evm_setIntervalMining', [0]);
      try {
        const answer = pay(o, buyer.privateKey);
        // The relayer's transaction is in the pool (its account nonce moved); the buyer sends its move after it,
        // outbidding it, and the block mines the move first.
        while ((await relayerNonce()) === nonceBefore) await new Promise((r) => setImmediate(r));
        await moveAllUsdc(buyer.privateKey);
        await rpc('evm_mine');
        const r = await answer;
        t.is(r.status, 402, r.text);
        t.is(r.body.error.code, 'SETTLEMENT_FAILED');
      } finally {
        await rpc('evm_setIntervalMining', [BLOCK_MS]);
      }
      const events = await w.service.store.readStream(`purchase-${o.q.purchase_id}`);
      const held = events.find((e) => e.type === 'Held')?.data as { reason: string; details: { reverted?: string } };
      t.is(held?.reason, 'SETTLEMENT_FAILED');
      reverts.push(held?.details.reverted ?? 'none');
    }
    t.deepEqual(reverts, ['mined', 'mined', 'mined'], 'each transfer was mined and reverted');
    t.deepEqual(await w.devnet.transfers(buyer.address, w.devnet.payTo), [], 'nothing was charged');

    // The fourth payment of this payer: refused before the checkpoint, the relayer sends nothing.
    await w.devnet.mint(buyer.address, 1_000_000n);
    const o = await offer();
    const nonceBefore = await relayerNonce();
    const r = await pay(o, buyer.privateKey);
    t.is(r.status, 402, r.text);
    t.is(r.body.error.code, 'PAYER_SETTLEMENTS_FAILING');
    t.true(r.body.error.details.retry_after_seconds > 0);
    t.deepEqual(await streamTypes(o.q.purchase_id), ['Quoted', 'Offered'], 'nothing was stored');
    t.is(await relayerNonce(), nonceBefore, 'the relayer sent nothing');

    // Another payer is not affected.
    const other = await pay(o, w.devnet.buyers[3]!.privateKey);
    t.is(other.status, 200, other.text);

    const metrics = await (await fetch(w.service.metricsUrl!)).text();
    t.regex(metrics, /rights_payer_settlement_reverts_total\{stage="mined"\} 3/);
    t.regex(metrics, /rights_payments_refused_payer_failing_total 1/);
    t.regex(metrics, /rights_payers_refused 1/);
  },
);

test.serial('the buyer library reads the window and signs with more than enough time: delivered', async (t) => {
  const b = buyerFor(w, { buyerIndex: 0 });
  const { capabilities } = await b.buyer.capabilities();
  const window = (capabilities.payment as { settlement_window_seconds: number }).settlement_window_seconds;
  const signedAt = Math.floor(Date.now() / 1000);
  const r = await b.buyer.buyReport({ resource: DECLARED, purpose: 'ai-input', tier: 'fresh' });
  t.is(r.status, 'delivered', JSON.stringify(r));
  const header = b.calls.find((c) => c.op === 'save')!.header!;
  paymentHeaders.push(header);
  const sent = decodePaymentSignature(header);
  if (!sent.ok) return t.fail(sent.problem);
  t.true(Number(sent.value.payload.authorization.validBefore) >= signedAt + window + 60);
});

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.allLogs(), { claims, paymentHeaders });
});
