import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registerEventLoopLag } from './event-loop-lag.js';
import type { SettleOutcome } from '../payment/settlement/port.js';

// The service's Prometheus metrics, one registry per running service (tests start several services
// in one process, so nothing goes into prom-client's global registry). Labels are bounded sets only:
// route templates, status codes, outcome names. Never a purchase id, claim, nonce or URL.
//
//   const metrics = createServiceMetrics();
//   metrics.settlements.inc({ outcome: 'success' });
//   await metrics.registry.metrics(); // the text exposition format

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly settlements: Counter<'outcome'>;
  /** From settle called to its outcome: broadcast, the receipt wait and the SDK's checks. */
  readonly settlementLatency: Histogram<'outcome'>;
  /** Relayer transactions re-sent at the same account nonce with higher fees
   *  (docs/decisions.md, "Stuck transactions replaced"). */
  readonly relayerReplacements: Counter;
  /** Settlements whose transfer reverted, by where: `simulated` (not broadcast, no gas) or `mined` (gas paid). */
  readonly payerSettlementReverts: Counter<'stage'>;
  /** Payments refused PAYER_SETTLEMENTS_FAILING: their payer's settlements kept reverting. */
  readonly paymentsRefusedPayerFailing: Counter;
  readonly recoveryPasses: Counter<'result'>;
  readonly recoveryResumes: Counter;
  readonly rslFetches: Counter<'channel' | 'outcome'>;
  /** Stops the event-loop monitor. */
  close(): void;
}

/** Every `outcome` of rights_settlements_total: each kind settle answers, and `error` when it threw.
 *  A Record, so a new kind of SettleOutcome does not compile until it is listed here. */
const SETTLEMENT_OUTCOMES: Record<SettleOutcome['kind'] | 'error', null> = {
  success: null,
  failed: null,
  ambiguous: null,
  stuck: null,
  error: null,
};
const REVERT_STAGES = ['simulated', 'mined'] as const;

export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];
  // The process and runtime: memory, CPU, file descriptors, event-loop lag, GC, handles (prom-client's
  // defaults, unprefixed as every Node exporter names them; docs/decisions.md, "The first hour").
  collectDefaultMetrics({ register: registry });
  // Three of them are gauges named like counters, which `promtool check metrics` refuses; their
  // per-type siblings (nodejs_active_handles{type}, …) carry the same numbers.
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(name);
  const metrics: ServiceMetrics = {
    registry,
    close: registerEventLoopLag(registry),
    httpDuration: new Histogram({
      name: 'rights_http_request_duration_seconds',
      help: 'HTTP request duration on the public port, by route template and status',
      labelNames: ['method', 'route', 'status'],
      // Capabilities answer in about a millisecond; a paid redemption waits for a block.
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    settlements: new Counter({
      name: 'rights_settlements_total',
      help: 'Settlement attempts by outcome (success, failed, ambiguous, stuck, error)',
      labelNames: ['outcome'],
      registers,
    }),
    settlementLatency: new Histogram({
      name: 'rights_settlement_duration_seconds',
      help: 'Settlement duration, from settle called to its outcome (receipt included), by outcome',
      labelNames: ['outcome'],
      // A 200 ms preconfirmation up to a transaction waiting many 2 s blocks.
      buckets: [0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60],
      registers,
    }),
    relayerReplacements: new Counter({
      name: 'rights_relayer_replacements_total',
      help: 'Relayer transactions replaced at the same account nonce with higher fees',
      registers,
    }),
    payerSettlementReverts: new Counter({
      name: 'rights_payer_settlement_reverts_total',
      help: 'Settlements whose transfer reverted, by stage (simulated: never broadcast; mined: gas paid)',
      labelNames: ['stage'],
      registers,
    }),
    paymentsRefusedPayerFailing: new Counter({
      name: 'rights_payments_refused_payer_failing_total',
      help: 'Payments refused before anything was stored because their payer kept failing settlement',
      registers,
    }),
    recoveryPasses: new Counter({
      name: 'rights_recovery_passes_total',
      help: 'Recovery passes run by this instance, by result (ok, skipped, failed)',
      labelNames: ['result'],
      registers,
    }),
    recoveryResumes: new Counter({
      name: 'rights_recovery_resumes_total',
      help: 'Purchases resumed by recovery passes',
      registers,
    }),
    rslFetches: new Counter({
      name: 'rights_rsl_fetches_total',
      help: 'RSL discovery fetches by channel and outcome (HTTP status class, cached, or the fetch error code)',
      labelNames: ['channel', 'outcome'],
      registers,
    }),
  };
  // Every outcome and stage is exported from the start, at 0 (Prometheus: "avoid missing metrics"): an
  // alert on failed settlements works before the first one, and every label value the README names is there.
  for (const outcome of Object.keys(SETTLEMENT_OUTCOMES)) metrics.settlements.inc({ outcome }, 0);
  for (const stage of REVERT_STAGES) metrics.payerSettlementReverts.inc({ stage }, 0);
  return metrics;
}
