import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROLE_KEYS } from '../../src/devnet/accounts.js';
import { startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import { chainChange, recordStart, type ChainHistory } from '../../src/devnet/chain-history.js';
import { auditCli } from '../support/audit-cli.js';
import { getReport, quoteAndOffer, publisherSite } from '../support/money-env.js';
import { signPayment } from '../support/pay.js';
import { startServiceProcess } from '../support/service-process.js';

// The development chain and ./data (docs/decisions.md, "The first hour"): the devnet starts a new chain on every `npm
// start` while DATA_DIR keeps the purchases. A start records its chain (id and genesis hash) in DATA_DIR; a restart
// under paid purchases of another chain says what that means, and `ops audit` says it too.

const A = { chain_id: 8453, genesis_hash: `0x${'a'.repeat(64)}` };
const B = { chain_id: 8453, genesis_hash: `0x${'b'.repeat(64)}` };

test('the record: the same chain moves last_seen on; another chain is a change and a new entry', (t) => {
  const empty: ChainHistory = { chains: [] };
  t.is(chainChange(empty, A), undefined);
  const once = recordStart(empty, A, new Date('2026-11-01T00:00:00Z'));
  const twice = recordStart(once, A, new Date('2026-11-02T00:00:00Z'));
  t.is(twice.chains.length, 1);
  t.is(twice.chains[0]!.first_seen, '2026-11-01T00:00:00.000Z');
  t.is(twice.chains[0]!.last_seen, '2026-11-02T00:00:00.000Z');
  t.is(chainChange(twice, A), undefined);
  t.deepEqual(chainChange(twice, B), twice.chains[0]);
  t.deepEqual(
    recordStart(twice, B, new Date('2026-11-03T00:00:00Z')).chains.map((c) => c.genesis_hash),
    [A.genesis_hash, B.genesis_hash],
  );
});

let origins: TestOrigins;
test.before(async () => {
  origins = await startTestOrigins(publisherSite());
});
test.after.always(async () => {
  await origins?.close();
});

test('a development restart under a paid purchase says the chain is new; ops audit says it too', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-chain-history-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // Development as `npm start` runs it: no RPC_URL, so a devnet child; publishers on loopback.
  const env = { ...origins.env, DATA_DIR: dataDir, METRICS_LISTEN: 'off', RPC_URL: '', NODE_ENV: '' };
  const first = await startServiceProcess(env);
  try {
    const { q, claim, paymentRequired } = await quoteAndOffer(first.url);
    const signature = await signPayment(ROLE_KEYS.buyers[0]!, paymentRequired);
    const paid = await getReport(first.url, q.report_url, { ...claim, 'payment-signature': signature });
    t.is(paid.status, 200, paid.text);
    t.notRegex(first.output(), /new chain under an old data directory/);
  } finally {
    await first.stop();
  }
  const recorded = JSON.parse(await readFile(path.join(dataDir, 'chain-history.json'), 'utf8')) as ChainHistory;
  t.is(recorded.chains.length, 1);
  t.is(recorded.chains[0]!.chain_id, 8453);

  const second = await startServiceProcess(env);
  try {
    const warning = second
      .output()
      .split('\n')
      .find((l) => l.includes('new chain under an old data directory'));
    if (!warning) return t.fail(second.output());
    const rec = JSON.parse(warning) as { level: number; msg: string; paid_purchases: number };
    t.is(rec.level, 40, 'a warning');
    t.is(rec.paid_purchases, 1);
    t.regex(rec.msg, /does not hold their transactions/);
    t.regex(rec.msg, /use a fresh DATA_DIR/);
  } finally {
    await second.stop();
  }
  const history = JSON.parse(await readFile(path.join(dataDir, 'chain-history.json'), 'utf8')) as ChainHistory;
  t.is(history.chains.length, 2);
  t.not(history.chains[0]!.genesis_hash, history.chains[1]!.genesis_hash);

  const audit = await auditCli({ DATA_DIR: dataDir });
  t.is(audit.code, 0, audit.text);
  t.regex(audit.text, /chains: 2 recorded; this data directory's earlier purchases were settled on another chain/);
});
