import test from 'ava';
import { auditCli } from '../support/audit-cli.js';
import { createPublicClient, http } from 'viem';
import { devnetChain } from '../../ops/devnet/devnet.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, moneyWorld, postQuote, type MoneyWorld } from '../support/money-env.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { assertNoSecretsLogged } from '../support/secrets.js';

// The write-ahead submission record on a devnet that mines on the clock (docs/decisions.md,
// "Write-ahead submission record"): the service, in its own process, is SIGKILLed right after its
// transaction reached the node (TEST_CRASH_AFTER_SUBMIT), i.e. before any receipt, with the transaction
// still waiting for the next block. Restarted on the same store, the buyer's retry resumes the purchase
// from the hash the stream recorded before the broadcast: the relayer sends nothing more, the chain
// shows one transfer, and the ledger settles and delivers exactly that transaction.

const BLOCK_MS = 3000;
let w: MoneyWorld;
const claims: string[] = [];
const paymentHeaders: string[] = [];
let processLogs = '';
const running: ServiceProcess[] = [];
test.before(async () => {
  w = await moneyWorld({ devnet: { blockMs: BLOCK_MS } });
});
test.after.always(async () => {
  for (const p of running) await p.kill9();
  await w?.close();
});

const start = async (env: Record<string, string> = {}) => {
  const p = await startServiceProcess({ ...w.env, CHAIN_BLOCK_MS: String(BLOCK_MS), NODE_ENV: 'test', ...env }, (s) => {
    processLogs += s;
  });
  running.push(p);
  return p;
};

test.serial(
  'SIGKILL after broadcast, before the receipt: resumed from the write-ahead record, one transfer',
  async (t) => {
    const chain = createPublicClient({
      chain: devnetChain(w.devnet.rpcUrl, BLOCK_MS),
      transport: http(w.devnet.rpcUrl),
    });
    const relayer = w.devnet.relayer.address;
    const buyer = w.devnet.buyers[0]!;
    const first = await start({ TEST_CRASH_AFTER_SUBMIT: '1' });
    const q = (
      await postQuote(first.url, { resource: DECLARED, purpose: 'search', tier: 'fresh', max_total_micro: '20000' })
    ).body;
    claims.push(q.claim_token);
    const offer = await getReport(first.url, q.report_url, { 'x-service-claim': q.claim_token });
    t.is(offer.status, 402);
    const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
    paymentHeaders.push(header);
    const before = await w.devnet.balanceOf(buyer.address);
    const sentBefore = await chain.getTransactionCount({ address: relayer, blockTag: 'pending' });

    await t.throwsAsync(
      getReport(first.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header }),
    );
    t.is((await first.exited).signal, 'SIGKILL', 'the service died right after handing the transaction to the node');
    t.is(
      await chain.getTransactionCount({ address: relayer, blockTag: 'pending' }),
      sentBefore + 1,
      'the transaction reached the node',
    );

    const second = await start();
    const retry = await getReport(second.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': header,
    });
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
  assertNoSecretsLogged(t, processLogs + w.logs(), { claims, paymentHeaders });
});
