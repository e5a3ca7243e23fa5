import test from 'ava';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { startFacilitatorServer } from '../../src/devnet/facilitator-server.js';
import { createFacilitatorSettlement } from '../../src/payment/settlement/facilitator.js';
import type { SettleOutcome } from '../../src/payment/settlement/settlement.js';
import { flakyRpc } from './support/flaky-rpc.js';
import { paymentDevnet, type PaymentDevnet } from './support/payment-devnet.js';
import { PRICE, nonceFor, offer, pay } from './support/offer.js';

// The relayer's submission pipeline on a devnet that mines every 2 s, as Base does: concurrent settles
// broadcast with consecutive account nonces without waiting for each other's receipts, so they land
// in the same block or the next; each settle's classification is its own; a nonce another process
// used is read from the chain again. (Speed is measured in bench:settle; this asserts blocks.)

const BLOCK_MS = 2000;
let d: PaymentDevnet;
let n = 0;
const key = () => `pipeline-${++n}-${Date.now()}`;
test.before(async () => {
  d = await paymentDevnet({ blockMs: BLOCK_MS });
});
test.after.always(async () => {
  await d?.stop();
});

const show = (o: unknown) => JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
const settlementOf = (devnet: PaymentDevnet, rpcUrl = devnet.rpcUrl) => devnet.selfSettlement({ rpcUrl });

async function payments(count: number, keyOf: (i: number) => Hex) {
  const req = offer(d.payTo);
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const nonce = nonceFor('https://pub.example/articles/one', key());
      return { req, nonce, payer: i, payload: await pay(keyOf(i), req, nonce) };
    }),
  );
}

test.serial('20 concurrent settles: 20 transfers in at most 2 blocks, consecutive relayer nonces', async (t) => {
  const rpc = await flakyRpc(d.rpcUrl, 'passThrough');
  t.teardown(() => rpc.close());
  const self = settlementOf(d, rpc.url);
  const pub = createPublicClient({ transport: http(d.rpcUrl) });
  const buyerKey = (i: number) => d.buyers[i % d.buyers.length]!.privateKey;
  const paid = await payments(20, buyerKey);
  const before = await d.balanceOf(d.payTo);
  const outcomes = await Promise.all(paid.map((p) => self.settle(p.payload as never, p.req as never)));
  const hashes = outcomes.map((o) => (o.kind === 'success' ? o.transaction : t.fail(show(o))));
  t.is(new Set(hashes).size, 20);
  const blocks = new Set(outcomes.map((o) => (o as Extract<SettleOutcome, { kind: 'success' }>).blockNumber));
  t.true(blocks.size <= 2, `mined in ${blocks.size} blocks`);
  const txs = await Promise.all(hashes.map((hash) => pub.getTransaction({ hash: hash as Hex })));
  const nonces = txs.map((x) => x.nonce).sort((a, b) => a - b);
  t.deepEqual(
    nonces,
    nonces.map((_, i) => nonces[0]! + i),
    'one account nonce each, no gap, no reuse',
  );
  t.is(await d.balanceOf(d.payTo), before + 20n * BigInt(PRICE));
  for (const p of paid) t.true(await self.authorizationState(d.buyers[p.payer % d.buyers.length]!.address, p.nonce));
  // One receipt watcher for the relayer (receipt-watcher.ts): a hash is asked for once when it arrives and
  // then only when the head has moved, so never more often than there were heads to see.
  const heads = new Set(rpc.headsAnswered).size;
  for (const hash of hashes) t.true((rpc.receiptsAsked.get(hash!.toLowerCase()) ?? 0) <= heads, `${hash} vs ${heads}`);
});

test.serial('concurrent settles keep their own classification: the doomed ones fail, the rest settle', async (t) => {
  const self = settlementOf(d);
  const empty = [generatePrivateKey(), generatePrivateKey()];
  const keyOf = (i: number) => (i % 3 === 1 ? empty[i % 2]! : d.buyers[i % d.buyers.length]!.privateKey);
  const paid = await payments(9, keyOf);
  const outcomes = await Promise.all(paid.map((p) => self.settle(p.payload as never, p.req as never)));
  outcomes.forEach((o, i) => {
    const doomed = { kind: 'failed', reason: 'invalid_exact_evm_insufficient_balance', reverted: 'simulated' };
    if (i % 3 === 1) t.deepEqual(o, doomed, `#${i}`);
    else t.is(o.kind, 'success', `#${i}: ${show(o)}`);
  });
  // Nothing refused left a gap: the next settle is mined.
  const [next] = await payments(1, () => d.buyers[0]!.privateKey);
  t.is((await self.settle(next!.payload as never, next!.req as never)).kind, 'success');
});

test.serial('a nonce used by another process is read from the chain again, and the settle goes through', async (t) => {
  const first = settlementOf(d);
  const other = settlementOf(d);
  const paid = await payments(3, (i) => d.buyers[i]!.privateKey);
  t.is((await first.settle(paid[0]!.payload as never, paid[0]!.req as never)).kind, 'success');
  // The other instance takes the nonce `first` would assign next.
  t.is((await other.settle(paid[1]!.payload as never, paid[1]!.req as never)).kind, 'success');
  const outcome = await first.settle(paid[2]!.payload as never, paid[2]!.req as never);
  t.is(outcome.kind, 'success', show(outcome));
  t.is(
    (await d.transfers(d.buyers[2]!.address, d.payTo)).filter(
      (x) => x.transaction === (outcome as { transaction?: Hex }).transaction,
    ).length,
    1,
  );
});

test.serial('the local facilitator server settles concurrent requests together, through its own relayer', async (t) => {
  const server = await startFacilitatorServer({
    rpcUrl: d.rpcUrl,
    relayerPrivateKey: d.facilitatorRelayer.privateKey,
    network: d.network,
    timing: { blockMs: BLOCK_MS },
  });
  try {
    const remote = createFacilitatorSettlement({
      facilitatorUrl: server.url,
      rpcUrl: d.rpcUrl,
      network: 'eip155:8453',
      asset: d.usdc,
      timing: { blockMs: BLOCK_MS },
    });
    const paid = await payments(12, (i) => d.buyers[i % d.buyers.length]!.privateKey);
    const outcomes = await Promise.all(paid.map((p) => remote.settle(p.payload as never, p.req as never)));
    const pub = createPublicClient({ transport: http(d.rpcUrl) });
    const mined = await Promise.all(
      outcomes.map((o) =>
        o.kind === 'success' ? pub.getTransaction({ hash: o.transaction }) : Promise.reject(new Error(show(o))),
      ),
    );
    t.true(mined.every((x) => x.from.toLowerCase() === d.facilitatorRelayer.address.toLowerCase()));
    const blocks = new Set(mined.map((x) => x.blockNumber));
    t.true(blocks.size <= 2, `mined in ${blocks.size} blocks`);
    for (const p of paid)
      t.true(await remote.authorizationState(d.buyers[p.payer % d.buyers.length]!.address, p.nonce));
  } finally {
    await server.close();
  }
});
