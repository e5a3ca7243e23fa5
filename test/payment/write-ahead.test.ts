import test from 'ava';
import type { Hex } from 'viem';
import type { Broadcast, TransactionOutcome } from '../../src/payment/settlement/settlement.js';
import { PRICE } from './support/offer.js';
import { usePaymentDevnet } from './support/payment-devnet.js';

// The write-ahead hook of the `self` backend on a devnet that mines every 2 s (docs/decisions.md,
// "Write-ahead submission record"): each signed transaction is handed to the hook, with its hash,
// before the node sees it; a hook that throws stops the broadcast (nothing sent, no account nonce
// used); and transactionOutcome answers about exactly such a hash: unknown, pending, mined.

const d = usePaymentDevnet({ blockMs: 2000 });
const settlementOf = () => d().selfSettlement();
const payment = (buyer: number) => d().payment(buyer);
const pendingCount = () => d().relayerNonce();

test.serial('the hash is written ahead before the node knows it, and is the transaction mined', async (t) => {
  const self = settlementOf();
  const p = await payment(0);
  const seen: { broadcast: Broadcast; atHook: TransactionOutcome }[] = [];
  const nonceBefore = await pendingCount();
  const outcome = await self.settle(p.payload as never, p.req as never, {
    async beforeBroadcast(b) {
      seen.push({
        broadcast: b,
        atHook: await self.transactionOutcome({ transaction: b.transaction, payer: p.payer, nonce: p.nonce }),
      });
    },
  });
  t.is(outcome.kind, 'success');
  t.is(seen.length, 1);
  const [{ broadcast, atHook }] = seen as [(typeof seen)[0]];
  t.deepEqual(atHook, { state: 'unknown' }, 'the node had not seen it when it was written ahead');
  t.is(broadcast.transaction, (outcome as { transaction: Hex }).transaction);
  t.is(broadcast.relayer, d().relayer.address);
  t.is(broadcast.accountNonce, nonceBefore);
  t.true(broadcast.gas > 0n && broadcast.maxFeePerGas >= broadcast.maxPriorityFeePerGas);

  const mined = await self.transactionOutcome({ transaction: broadcast.transaction, payer: p.payer, nonce: p.nonce });
  t.is(mined.state, 'mined');
  t.like((mined as { transfer: object }).transfer, {
    transaction: broadcast.transaction,
    from: p.payer,
    to: d().payTo,
    value: BigInt(PRICE),
  });
  // Another authorization's question about this hash finds no transfer of its own in it.
  const other = await self.transactionOutcome({
    transaction: broadcast.transaction,
    payer: p.payer,
    nonce: `0x${'00'.repeat(32)}`,
  });
  t.deepEqual(other, { state: 'mined' });
});

test.serial('a hook that throws stops the broadcast: nothing sent, the account nonce unused, no gap', async (t) => {
  const self = settlementOf();
  const p = await payment(1);
  const before = await pendingCount();
  let written: Hex | undefined;
  const refused = await self.settle(p.payload as never, p.req as never, {
    async beforeBroadcast(b) {
      written = b.transaction;
      throw new Error('the store refused the append');
    },
  });
  t.deepEqual(refused, { kind: 'failed', reason: 'write_ahead_failed' });
  t.is(await pendingCount(), before, 'no transaction reached the node');
  t.deepEqual(await self.transactionOutcome({ transaction: written!, payer: p.payer, nonce: p.nonce }), {
    state: 'unknown',
  });
  t.false(await self.authorizationState(p.payer, p.nonce));

  // The same authorization settles afterwards, at the account nonce the refused one would have used.
  let nonce: number | undefined;
  const ok = await self.settle(p.payload as never, p.req as never, {
    async beforeBroadcast(b) {
      nonce = b.accountNonce;
    },
  });
  t.is(ok.kind, 'success');
  t.is(nonce, before);
  t.is(
    (await d().transfers(p.payer, d().payTo)).filter((x) => x.transaction === (ok as { transaction: Hex }).transaction)
      .length,
    1,
  );
});

test.serial('a recorded transaction waiting for its block is pending, and is waited for when asked', async (t) => {
  const self = settlementOf();
  const p = await payment(2);
  let written: Hex | undefined;
  let writtenAhead!: () => void;
  const ahead = new Promise<void>((resolve) => {
    writtenAhead = resolve;
  });
  const settling = self.settle(p.payload as never, p.req as never, {
    async beforeBroadcast(b) {
      written = b.transaction;
      writtenAhead();
    },
  });
  const q = () => ({ transaction: written!, payer: p.payer, nonce: p.nonce });
  // Counted from the write-ahead, not from the start: signing first may take a while on a busy machine.
  await ahead;
  let seen: TransactionOutcome = { state: 'unknown' };
  for (let i = 0; i < 200 && seen.state === 'unknown'; i++) {
    await new Promise((r) => setTimeout(r, 10));
    seen = await self.transactionOutcome(q());
  }
  // Sent between two blocks: the node holds it until the next one (or it was mined already, if that was quick).
  t.true(seen.state === 'pending' || seen.state === 'mined', seen.state);
  const waited = await self.transactionOutcome({ ...q(), waitMs: 10_000 });
  t.is(waited.state, 'mined');
  t.is((waited as { transfer?: { transaction: Hex } }).transfer?.transaction, written);
  t.is((await settling).kind, 'success');
});
