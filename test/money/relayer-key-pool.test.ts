import test from 'ava';
import { relayerPool } from '../support/relayer-pool.js';
import { auditCli } from '../support/audit-cli.js';
import { randomBytes } from 'node:crypto';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openStore } from '../../src/store/open/open.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { useWorld } from '../support/world.js';
import type { ServiceProcess } from '../support/service-process.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { requiredServerUrl } from '../support/required-server.js';

// Many instances, no shared nonce (docs/decisions.md, "Relayer health and a pool of relayer keys"): two service
// processes on one PostgreSQL with a RELAYER_PRIVATE_KEYS pool of two each lease a different key; 40 purchases paid at
// once and spread over both, on a devnet mining every 2 s, give 40 transfers from the two relayers, each relayer's
// account nonces used once and in order, no nonce error, and a clean audit. A killed instance's key is taken over by
// the next one started.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'relayer key pool (two instances on one PostgreSQL)', {
  requiredInCi: true,
});
const BLOCK_MS = 2000;
const N = 40;

const claims: string[] = [];
const paymentHeaders: string[] = [];
let pool: Hex[] = [];
/** A lone RELAYER_PRIVATE_KEY, a pool of one. */
const lone = generatePrivateKey();
let relayers: Hex[] = [];

/** The relayer a process leased, from its "relayer key leased" log line. */
const leasedBy = (p: ServiceProcess): Hex | undefined => {
  for (const line of p.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    const rec = JSON.parse(line) as { msg?: string; relayer?: Hex };
    if (rec.msg === 'relayer key leased') return rec.relayer;
  }
  return undefined;
};

if (PG) {
  const w = useWorld({
    service: false,
    eventStoreUrl: `${PG}?schema=pool_${randomBytes(4).toString('hex')}`,
    devnet: { blockMs: BLOCK_MS },
  });
  const env = () => ({
    ...w.env,
    RELAYER_PRIVATE_KEY: '',
    RELAYER_PRIVATE_KEYS: pool.join(','),
    CHAIN_BLOCK_MS: String(BLOCK_MS),
  });
  const start = () => w.startProcess(env());
  test.before(async () => {
    // Each pool key holds 1 ETH for gas.
    ({ keys: pool, relayers } = await relayerPool(w.devnet.rpcUrl, 2));
  });

  test.serial(
    `two processes lease different keys; ${N} purchases over both: ${N} transfers, audit clean`,
    async (t) => {
      const a = await start();
      const b = await start();
      const leased = [leasedBy(a), leasedBy(b)];
      t.deepEqual([...leased].sort(), [...relayers].sort(), 'each process leased its own key of the pool');

      // Quotes and offers one after another (each instance fetches the publisher's declaration once and
      // then reads its cache); what is concurrent is the payments.
      const paid: {
        q: { report_url: string; claim_token: string; purchase_id: string };
        via: ServiceProcess;
        buyer: (typeof w.devnet.buyers)[number];
        header: string;
      }[] = [];
      for (let i = 0; i < N; i++)
        paid.push(
          await (async () => {
            const via = i % 2 ? a : b;
            const quoted = await postQuote(via.url, {
              resource: DECLARED,
              purpose: 'ai-input',
              tier: 'fresh',
              max_total_micro: '20000',
            });
            if (quoted.status !== 200 || !quoted.body.report_url)
              throw new Error(`quote ${quoted.status}: ${JSON.stringify(quoted.body)}`);
            const q = quoted.body;
            const offer = await getReport(via.url, q.report_url, { 'x-service-claim': q.claim_token });
            t.is(offer.status, 402, offer.text);
            const buyer = w.devnet.buyers[i % w.devnet.buyers.length]!;
            const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
            claims.push(q.claim_token);
            paymentHeaders.push(header);
            return { q, via, buyer, header };
          })(),
        );
      const before = await Promise.all(w.devnet.buyers.map((x) => w.devnet.transfers(x.address, w.devnet.payTo)));
      const known = new Set(before.flat().map((x) => x.transaction));

      const answers = await Promise.all(
        paid.map((p) =>
          getReport(p.via.url, p.q.report_url, { 'x-service-claim': p.q.claim_token, 'payment-signature': p.header }),
        ),
      );
      t.deepEqual(
        answers.map((x) => x.status),
        Array(N).fill(200),
        answers.find((x) => x.status !== 200)?.text,
      );

      // The chain: N new transfers, sent by the two pool relayers, each relayer's nonces once and in order.
      const after = (await Promise.all(w.devnet.buyers.map((x) => w.devnet.transfers(x.address, w.devnet.payTo))))
        .flat()
        .filter((x) => !known.has(x.transaction));
      t.is(after.length, N);
      t.true(after.every((x) => x.value === 20_000n));
      t.is(new Set(after.map((x) => x.transaction)).size, N, 'one Transfer per transaction');
      const pub = createPublicClient({ transport: http(w.devnet.rpcUrl) });
      const txs = await Promise.all(after.map((x) => pub.getTransaction({ hash: x.transaction })));
      for (const relayer of relayers) {
        const nonces = txs
          .filter((x) => x.from.toLowerCase() === relayer.toLowerCase())
          .map((x) => x.nonce)
          .sort((p, q) => p - q);
        t.is(nonces.length, N / 2, `${relayer} settled the purchases paid through its instance`);
        t.deepEqual(
          nonces,
          nonces.map((_, i) => i),
          'consecutive account nonces from 0, none reused',
        );
      }
      t.notRegex(w.allLogs(), /nonce too (low|high)|invalid nonce|replacement transaction underpriced/i);

      // The ledger: each purchase settled once and was delivered, naming a transfer the chain shows.
      const store = await openStore(w.env.EVENT_STORE_URL!);
      try {
        const settledTx: string[] = [];
        for (const p of paid) {
          const events = await store.readStream(`purchase-${p.q.purchase_id}`);
          t.deepEqual(
            events.map((e) => e.type),
            ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast', 'Settled', 'Delivered'],
          );
          settledTx.push((events.find((e) => e.type === 'Settled')!.data as { transaction: string }).transaction);
        }
        t.deepEqual(settledTx.sort(), after.map((x) => x.transaction).sort());
      } finally {
        await store.close();
      }

      // A killed instance's key is taken over by the next one started (the server ends its session).
      const killedKey = leasedBy(a);
      await a.kill9();
      const c = await start();
      t.is(leasedBy(c), killedKey);

      for (const p of [b, c]) await p.stop();
      const audit = await auditCli(w.env);
      t.is(audit.code, 0, audit.text);
      t.regex(audit.text, new RegExp(`audited ${N} purchase stream\\(s\\) .*: no violations`));
    },
  );

  test.serial(
    'a lone RELAYER_PRIVATE_KEY is a pool of one: a second instance with it fails at start naming the pool',
    async (t) => {
      const env = {
        ...w.env,
        RELAYER_PRIVATE_KEY: lone.slice(2),
        RELAYER_PRIVATE_KEYS: '',
        CHAIN_BLOCK_MS: String(BLOCK_MS),
      };
      const startLone = () => w.startProcess(env);
      const first = await startLone();
      t.is(leasedBy(first), privateKeyToAccount(lone).address);
      // The second waits the rolling-restart grace (30 s), then gives up; nothing listens.
      const second = await t.throwsAsync(startLone());
      t.regex(second!.message, /exited \(1\) before listening/);
      t.regex(second!.message, /RELAYER_PRIVATE_KEY is leased by another instance.*RELAYER_PRIVATE_KEYS/);
      // Once the first has stopped, an instance with that key starts and leases it.
      await first.stop();
      const next = await startLone();
      t.is(leasedBy(next), privateKeyToAccount(lone).address);
      await next.stop();
    },
  );

  test.serial('the suite logged no claim, payment signature, authorization or relayer key', (t) => {
    assertNoSecretsLogged(t, w.allLogs(), { claims, paymentHeaders });
    for (const key of [...pool, lone]) t.false(w.allLogs().includes(key.slice(2)));
  });
}
