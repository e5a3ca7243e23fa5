import { Gauge, type Registry } from 'prom-client';
import type { RelayerBalance, RelayerFunds } from '../payment/settlement/relayer-funds.js';
import type { PendingTransactions } from '../payment/settlement/settlement.js';

// The relayer's health at each scrape (SETTLEMENT=self): its ETH balance (one chain read per scrape)
// and the transactions it handed to the node that have not been answered yet. A balance falling
// towards the readiness floor, or an oldest pending age growing past a few blocks, is the operator's
// signal before buyers see RELAYER_UNDERFUNDED or slow settlements (docs/decisions.md).
export function registerRelayerGauges(
  registry: Registry,
  relayer: { funds: RelayerFunds; pending: () => PendingTransactions; now?: () => number },
): void {
  const registers = [registry];
  const now = relayer.now ?? Date.now;
  // One chain read per scrape, shared by the two gauges (prom-client collects them concurrently).
  let shared: { at: number; read: Promise<RelayerBalance | undefined> } | undefined;
  const read = () => {
    if (!shared || now() - shared.at > 1_000) shared = { at: now(), read: relayer.funds.read().catch(() => undefined) };
    return shared.read;
  };
  // An unreadable chain leaves the last values (readiness names chain_rpc); it never fails the scrape.
  const ethGauge = (name: string, help: string, wei: (r: RelayerBalance) => bigint) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const r = await read();
        if (r) this.set(Number(wei(r)) / 1e18);
      },
    });
  ethGauge(
    'rights_relayer_balance_eth',
    'ETH balance of the relayer account that pays settlement gas',
    (r) => r.balance,
  );
  ethGauge(
    'rights_relayer_min_settlements_eth',
    'ETH the next RELAYER_MIN_SETTLEMENTS settlements need at the current fee (the readiness floor)',
    (r) => r.need,
  );
  new Gauge({
    name: 'rights_relayer_pending_transactions',
    help: 'Relayer transactions handed to the node whose receipt has not been answered yet',
    registers,
    collect() {
      this.set(relayer.pending().count);
    },
  });
  new Gauge({
    name: 'rights_relayer_oldest_pending_seconds',
    help: 'Age of the oldest relayer transaction still waiting for its receipt (0 when none)',
    registers,
    collect() {
      const oldest = relayer.pending().oldestSentAt;
      this.set(oldest === undefined ? 0 : Math.max(0, now() - oldest) / 1000);
    },
  });
}
