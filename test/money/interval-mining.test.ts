import test from 'ava';
import { createPublicClient, http } from 'viem';
import { devnetRpc } from '../support/devnet-rpc.js';
import { auditCli } from '../support/audit-cli.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';

// Paid reports on a devnet that mines every 2 s, as Base does (DEVNET_BLOCK_MS), with the service
// polling at that pace (CHAIN_BLOCK_MS): purchases paid at the same moment settle together, in the
// block being built or the next, instead of one per block. Asserted on the chain and in the ledger, by
// events rather than by how many 2 s blocks a busy machine needs to take 20 payments: no block is mined
// until all 20 transactions are at the node (a relayer that waited for one receipt before sending the
// next would never get there), then the next block takes them all.

const BLOCK_MS = 2000;
const N = 20;
const claims: string[] = [];
const paymentHeaders: string[] = [];
// No fee bumps while the blocks wait (a bump is a second transaction written ahead, not this test's subject).
const w = useWorld({
  devnet: { blockMs: BLOCK_MS },
  service: { env: { CHAIN_BLOCK_MS: String(BLOCK_MS), SETTLEMENT_BUMP_BLOCKS: '1000' } },
});

test.serial(`${N} concurrent purchases settle in one block, one Transfer each, and audit clean`, async (t) => {
  const paid = await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const q = (
        await postQuote(w.url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' })
      ).body;
      const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
      t.is(offer.status, 402);
      const buyer = w.devnet.buyers[i % w.devnet.buyers.length]!;
      const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
      claims.push(q.claim_token);
      paymentHeaders.push(header);
      return { q, buyer, header };
    }),
  );
  const before = await Promise.all(w.devnet.buyers.map((b) => w.devnet.transfers(b.address, w.devnet.payTo)));
  const known = new Set(before.flat().map((x) => x.transaction));

  const pub = createPublicClient({ transport: http(w.devnet.rpcUrl) });
  const sent = () => pub.getTransactionCount({ address: w.devnet.relayer.address, blockTag: 'pending' });
  const mined = await pub.getTransactionCount({ address: w.devnet.relayer.address, blockTag: 'latest' });
  await devnetRpc(w.devnet.rpcUrl, 'evm_setIntervalMining', [0]);
  const answering = Promise.all(
    paid.map((p) =>
      getReport(w.url, p.q.report_url, { 'x-service-claim': p.q.claim_token, 'payment-signature': p.header }),
    ),
  );
  let atNode = 0;
  try {
    for (let polls = 0; polls < 3000 && atNode < N; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      atNode = (await sent()) - mined;
    }
  } finally {
    await devnetRpc(w.devnet.rpcUrl, 'evm_setIntervalMining', [BLOCK_MS]);
  }
  t.is(atNode, N, 'every transaction was at the node before the next block');
  const answers = await answering;
  t.deepEqual(
    answers.map((a) => a.status),
    Array(N).fill(200),
    answers.find((a) => a.status !== 200)?.text,
  );

  // The chain: N new transfers to the seller, N transactions, in the one block after they were all sent.
  const after = (await Promise.all(w.devnet.buyers.map((b) => w.devnet.transfers(b.address, w.devnet.payTo))))
    .flat()
    .filter((x) => !known.has(x.transaction));
  t.is(after.length, N);
  t.true(
    after.every((x) => x.value === 20_000n),
    'each moved exactly the price',
  );
  t.is(new Set(after.map((x) => x.transaction)).size, N, 'one Transfer per transaction');
  const blocks = new Set(after.map((x) => x.blockNumber));
  t.is(blocks.size, 1, `the transfers took ${blocks.size} blocks`);

  // The ledger: each purchase settled once and was delivered, naming a transfer the chain shows.
  const settledTx: string[] = [];
  for (const p of paid) {
    const events = await w.service!.store.readStream(`purchase-${p.q.purchase_id}`);
    t.deepEqual(
      events.map((e) => e.type),
      ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast', 'Settled', 'Delivered'],
    );
    const settled = events.find((e) => e.type === 'Settled')!.data as { transaction: string; payer: string };
    t.is(settled.payer, p.buyer.address);
    settledTx.push(settled.transaction);
  }
  t.deepEqual(settledTx.sort(), after.map((x) => x.transaction).sort());

  // `npm run ops -- audit` on the same store (the embedded store admits one process at a time).
  await w.service!.stop();
  const audit = await auditCli(w.env);
  t.is(audit.code, 0, audit.text);
  t.regex(audit.text, new RegExp(`audited ${N} purchase stream\\(s\\) .*: no violations`));
});

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
