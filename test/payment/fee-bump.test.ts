import test from 'ava';
import { createPublicClient, http, numberToHex, type Hex } from 'viem';
import { startDevnet, type Devnet } from '../../ops/devnet/devnet.js';
import { createSelfSettlement } from '../../src/payment/settlement/self.js';
import type { Broadcast } from '../../src/payment/settlement/settlement.js';
import { PRICE, nonceFor, offer, pay } from './support/offer.js';

// A transaction left unmined is replaced (docs/decisions.md, "Stuck transactions replaced"), on a devnet
// that mines every 2 s: right before the first broadcast the next block's base fee jumps above what the
// transaction offers, so it waits; after SETTLEMENT_BUMP_BLOCKS (1 here) it is re-sent at the same
// account nonce with higher fees, written ahead like the first, and mined. One transfer; every hash
// sent is one the write-ahead hook saw.

const BLOCK_MS = 2000;
let d: Devnet;
test.before(async () => {
  d = await startDevnet({ blockMs: BLOCK_MS });
});
test.after.always(async () => {
  await d?.stop();
});

test.serial('an under-priced transaction is bumped at the same account nonce and mined: one transfer', async (t) => {
  const pub = createPublicClient({ transport: http(d.rpcUrl) });
  const self = createSelfSettlement({
    rpcUrl: d.rpcUrl,
    relayerPrivateKey: d.relayer.privateKey,
    network: 'eip155:8453',
    asset: d.usdc,
    timing: { blockMs: BLOCK_MS },
    bump: { blocks: 1, maxFeePerGas: 1_000_000_000_000n },
  });
  const req = offer(d.payTo);
  const nonce = nonceFor('https://pub.example/articles/one', `bump-${Date.now()}`);
  const buyer = d.buyers[0]!;
  const payload = await pay(buyer.privateKey, req, nonce);
  const before = await pub.getTransactionCount({ address: d.relayer.address, blockTag: 'pending' });
  const written: Broadcast[] = [];
  const outcome = await self.settle(payload as never, req as never, {
    async beforeBroadcast(b) {
      written.push(b);
      if (written.length === 1)
        // The next block's base fee: far above what this transaction offers, so it is not mined there.
        await pub.request({
          method: 'hardhat_setNextBlockBaseFeePerGas' as never,
          params: [numberToHex(b.maxFeePerGas * 50n)] as never,
        });
    },
  });
  t.is(
    outcome.kind,
    'success',
    JSON.stringify(outcome, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
  );
  t.true(written.length >= 2, `${written.length} transaction(s) sent`);
  for (const [i, b] of written.entries()) {
    t.is(b.accountNonce, before, 'every replacement at the same account nonce');
    if (i === 0) continue;
    t.is(b.replaces, written[i - 1]!.transaction);
    t.true(b.maxFeePerGas * 10n >= written[i - 1]!.maxFeePerGas * 11n, 'at least the 10% replacement minimum');
    t.true(b.maxPriorityFeePerGas * 10n >= written[i - 1]!.maxPriorityFeePerGas * 11n);
  }
  const transfers = await d.transfers(buyer.address, d.payTo);
  t.is(transfers.length, 1, 'exactly one transfer');
  t.is(transfers[0]!.value, BigInt(PRICE));
  const mined = (outcome as { transaction: Hex }).transaction;
  t.is(mined, transfers[0]!.transaction, 'the outcome names the transaction that was mined');
  t.true(
    written.some((b) => b.transaction === mined),
    'the mined one was written ahead',
  );
  t.is(await pub.getTransactionCount({ address: d.relayer.address, blockTag: 'pending' }), before + 1);
});
