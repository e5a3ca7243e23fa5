import test from 'ava';
import { auditCli } from '../support/audit-cli.js';
import { useCrashWorld } from './support/crash-world.js';
import { createPublicClient, http } from 'viem';
import { devnetChain } from '../../src/devnet/devnet.js';

// The write-ahead submission record on a devnet that mines on the clock (docs/decisions.md,
// "Write-ahead submission record"): the service, in its own process, is SIGKILLed right after its
// transaction reached the node (TEST_CRASH_AT=after-submit), i.e. before any receipt, with the transaction
// still waiting for the next block. Restarted on the same store, the buyer's retry resumes the purchase
// from the hash the stream recorded before the broadcast: the relayer sends nothing more, the chain
// shows one transfer, and the ledger settles and delivers exactly that transaction.

const BLOCK_MS = 3000;
const crash = useCrashWorld({ devnet: { blockMs: BLOCK_MS }, env: { CHAIN_BLOCK_MS: String(BLOCK_MS) } });

test.serial(
  'SIGKILL after broadcast, before the receipt: resumed from the write-ahead record, one transfer',
  async (t) => {
    const w = crash.world();
    const chain = createPublicClient({
      chain: devnetChain(w.devnet.rpcUrl, BLOCK_MS),
      transport: http(w.devnet.rpcUrl),
    });
    const relayer = w.devnet.relayer.address;
    const buyer = w.devnet.buyers[0]!;
    const first = await crash.start({ TEST_CRASH_AT: 'after-submit' });
    const paid = await crash.paidOffer(first.url, buyer);
    const { q } = paid;
    const before = await w.devnet.balanceOf(buyer.address);
    const sentBefore = await chain.getTransactionCount({ address: relayer, blockTag: 'pending' });

    await t.throwsAsync(crash.redeem(first.url, paid));
    t.is((await first.exited).signal, 'SIGKILL', 'the service died right after handing the transaction to the node');
    t.is(
      await chain.getTransactionCount({ address: relayer, blockTag: 'pending' }),
      sentBefore + 1,
      'the transaction reached the node',
    );

    const second = await crash.start();
    const retry = await crash.redeem(second.url, paid);
    t.is(retry.status, 200, retry.text);
    await second.stop();

    // The chain: one transfer, and the relayer sent nothing beside the transaction it had written ahead.
    const transfers = await w.devnet.transfers(buyer.address, w.devnet.payTo);
    t.is(transfers.length, 1, 'exactly one transfer on chain');
    t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);
    t.is(await chain.getTransactionCount({ address: relayer, blockTag: 'pending' }), sentBefore + 1);

    // The ledger: the hash recorded before the broadcast is the one settled and delivered.
    const service = await w.start();
    const events = await service.store.readStream(`purchase-${q.purchase_id}`);
    t.deepEqual(
      events.map((e) => e.type),
      ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast', 'Settled', 'Delivered'],
    );
    const ahead = events[3]!.data as { transaction: string; relayer: string; account_nonce: string };
    t.is(ahead.transaction, transfers[0]!.transaction);
    t.is(ahead.relayer, relayer);
    t.is(ahead.account_nonce, String(sentBefore));
    t.is((events[4]!.data as { transaction: string }).transaction, transfers[0]!.transaction);
    t.is(retry.body.payment_settlement.transaction, transfers[0]!.transaction);
    await service.stop();

    const audit = await auditCli(w.env);
    t.is(audit.code, 0, audit.text);
    t.regex(audit.text, /no violations/);
  },
);

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  crash.assertNoSecretsLogged(t);
});
