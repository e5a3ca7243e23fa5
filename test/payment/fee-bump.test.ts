import test from 'ava';
import { createPublicClient, http, numberToHex, type Hex } from 'viem';
import type { Broadcast } from '../../src/payment/settlement/settlement.js';
import { PRICE } from './support/offer.js';
import { usePaymentDevnet } from './support/payment-devnet.js';

// A transaction left unmined is replaced (docs/decisions.md, "Stuck transactions replaced"), on a devnet
// that mines every 2 s: right before the first broadcast the next block's base fee jumps above what the
// transaction offers, so it waits; after SETTLEMENT_BUMP_BLOCKS (1 here) it is re-sent at the same
// account nonce with higher fees, written ahead like the first, and mined. One transfer; every hash
// sent is one the write-ahead hook saw.

const d = usePaymentDevnet({ blockMs: 2000 });

test.serial('an under-priced transaction is bumped at the same account nonce and mined: one transfer', async (t) => {
  const pub = createPublicClient({ transport: http(d().rpcUrl) });
  const self = d().selfSettlement({ bump: { blocks: 1, maxFeePerGas: 1_000_000_000_000n } });
  const { req, payer, payload } = await d().payment(0);
  const before = await d().relayerNonce();
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
  const transfers = await d().transfers(payer, d().payTo);
  t.is(transfers.length, 1, 'exactly one transfer');
  t.is(transfers[0]!.value, BigInt(PRICE));
  const mined = (outcome as { transaction: Hex }).transaction;
  t.is(mined, transfers[0]!.transaction, 'the outcome names the transaction that was mined');
  t.true(
    written.some((b) => b.transaction === mined),
    'the mined one was written ahead',
  );
  t.is(await d().relayerNonce(), before + 1);
});
