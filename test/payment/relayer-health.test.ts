import test from 'ava';
import { devnetRpc, setDevnetBalance } from '../support/devnet-rpc.js';
import { Registry } from 'prom-client';
import { createPublicClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { registerRelayerGauges } from '../../src/metrics/relayer-gauges.js';
import { chainClient } from '../../src/payment/settlement/chain-reads.js';
import { relayerFunds, SETTLEMENT_GAS } from '../../src/payment/settlement/relayer-funds.js';
import { usePaymentDevnet } from './support/payment-devnet.js';

// Relayer health on a devnet that mines every 2 s (docs/decisions.md, "Relayer health and a pool of relayer keys"): the
// transactions a relayer handed to the node stay pending until their settle answers, and /metrics shows their count and
// the oldest one's age; the balance gauge is the chain's balance; the funds check needs RELAYER_MIN_SETTLEMENTS
// settlements' gas; a process that lost its relayer key lease signs nothing.

const BLOCK_MS = 2000;
const d = usePaymentDevnet({ blockMs: BLOCK_MS });

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const payment = (buyer: number) => d().payment(buyer);

test.serial('pending transactions and their oldest age show in /metrics until their settle answers', async (t) => {
  const self = d().selfSettlement();
  const pub = chainClient(d().rpcUrl, 'eip155:8453', { blockMs: BLOCK_MS });
  const registry = new Registry();
  const funds = relayerFunds(pub, self.relayer, 10);
  // The gauges' one-second shared read runs on a clock of the test's (a wait would only pass the time).
  let clock = Date.now();
  registerRelayerGauges(registry, { funds, pending: self.pendingTransactions, now: () => clock });
  t.deepEqual(self.pendingTransactions(), { count: 0, oldestSentAt: undefined });

  const paid = await Promise.all([0, 1, 2].map(payment));
  const startedAt = Date.now();
  // No block until all three are at the node: on a busy machine a 2 s block could take some of them
  // before the last is sent, and the three would never be pending together.
  await devnetRpc(d().rpcUrl, 'evm_setIntervalMining', [0]);
  const settling = Promise.all(paid.map((p) => self.settle(p.payload as never, p.req as never)));
  try {
    while (self.pendingTransactions().count < 3 && Date.now() - startedAt < 60_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const pending = self.pendingTransactions();
    t.is(pending.count, 3);
    t.true(pending.oldestSentAt! >= startedAt && pending.oldestSentAt! <= Date.now());
    const text = await registry.metrics();
    t.is(sample(text, 'rights_relayer_pending_transactions'), 3, text);
    t.true((sample(text, 'rights_relayer_oldest_pending_seconds') ?? -1) >= 0);
  } finally {
    await devnetRpc(d().rpcUrl, 'evm_setIntervalMining', [BLOCK_MS]);
  }

  const outcomes = await settling;
  t.deepEqual(
    outcomes.map((o) => o.kind),
    ['success', 'success', 'success'],
  );
  t.deepEqual(self.pendingTransactions(), { count: 0, oldestSentAt: undefined });
  clock += 1_100; // past the shared read of the last scrape
  const after = await registry.metrics();
  t.is(sample(after, 'rights_relayer_pending_transactions'), 0);
  t.is(sample(after, 'rights_relayer_oldest_pending_seconds'), 0);
  const balance = await createPublicClient({ transport: http(d().rpcUrl) }).getBalance({ address: self.relayer });
  t.is(sample(after, 'rights_relayer_balance_eth'), Number(balance) / 1e18);
  const read = await funds.read();
  t.is(read.settlements, 10);
  t.true(read.need > 0n && read.need % (SETTLEMENT_GAS * 10n) === 0n, 'ten settlements at the max fee per gas');
  t.is(sample(after, 'rights_relayer_min_settlements_eth'), Number(read.need) / 1e18);
});

test.serial(
  'the funds check needs RELAYER_MIN_SETTLEMENTS settlements of gas, read at most once a second',
  async (t) => {
    const pub = chainClient(d().rpcUrl, 'eip155:8453', { blockMs: BLOCK_MS });
    const relayer = privateKeyToAccount(generatePrivateKey()).address;
    const setBalance = (wei: bigint) => setDevnetBalance(d().rpcUrl, relayer, wei);
    let clock = 0;
    const funds = relayerFunds(pub, relayer, 10, { now: () => clock });
    t.false(await funds.sufficient(), 'no ETH');
    const one = (await funds.read()).need / 10n;
    // Enough for 9 of the next 10 (with room for the fee to move a little between reads): still refused.
    await setBalance(one * 9n);
    clock += 500;
    t.false(await funds.sufficient(), 'cached for a second');
    clock += 600;
    t.false(await funds.sufficient(), 'nine settlements are not ten');
    await setBalance(one * 20n);
    t.false(await funds.sufficient(), 'still the cached answer');
    clock += 1_000;
    t.true(await funds.sufficient(), 'twenty settlements are enough');
    // An unreadable chain does not refuse offers by itself (readiness names chain_rpc).
    const dead = relayerFunds(chainClient('http://127.0.0.1:9/', 'eip155:8453', { blockMs: BLOCK_MS }), relayer, 10);
    t.true(await dead.sufficient());
  },
);

test.serial('a settlement whose relayer key lease is lost signs nothing: failed, no transaction', async (t) => {
  let holds = false;
  const self = d().selfSettlement({ holdsKey: () => holds });
  const pub = createPublicClient({ transport: http(d().rpcUrl) });
  const nonceBefore = await pub.getTransactionCount({ address: self.relayer as Hex, blockTag: 'pending' });
  const p = await payment(0);
  const refused = await self.settle(p.payload as never, p.req as never);
  t.is(refused.kind, 'failed', JSON.stringify(refused));
  t.is(await pub.getTransactionCount({ address: self.relayer as Hex, blockTag: 'pending' }), nonceBefore);
  holds = true;
  const settled = await self.settle(p.payload as never, p.req as never);
  t.is(settled.kind, 'success', settled.kind === 'success' ? '' : JSON.stringify(settled));
});
