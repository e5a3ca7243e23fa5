import type { Settlement } from '../payment/settlement/settlement.js';
import type { RslEngine } from '../rsl/engine.js';
import type { Observation } from '../rsl/reading.js';
import type { ServiceMetrics } from './service-metrics.js';

// Counting wrappers around the parts the metrics watch, so the parts themselves know nothing of
// Prometheus. Each returns something with the wrapped thing's own type.

export function countedSettlement(settlement: Settlement, metrics: ServiceMetrics): Settlement {
  return {
    kind: settlement.kind,
    verify: (payload, requirements) => settlement.verify(payload, requirements),
    authorizationState: (payer, nonce) => settlement.authorizationState(payer, nonce),
    findTransfer: (q) => settlement.findTransfer(q),
    transactionOutcome: (q) => settlement.transactionOutcome(q),
    blockNumber: () => settlement.blockNumber(),
    ...(settlement.pendingTransactions ? { pendingTransactions: settlement.pendingTransactions } : {}),
    async settle(payload, requirements, options) {
      const timer = metrics.settlementLatency.startTimer();
      try {
        const outcome = await settlement.settle(payload, requirements, options);
        metrics.settlements.inc({ outcome: outcome.kind });
        timer({ outcome: outcome.kind });
        return outcome;
      } catch (err) {
        metrics.settlements.inc({ outcome: 'error' });
        timer({ outcome: 'error' });
        throw err;
      }
    },
  };
}

/** Counts each discovery fetch of a reading: its HTTP status class, `cached`, or its error code. */
export function countedRsl(engine: RslEngine, metrics: ServiceMetrics): RslEngine {
  return {
    coverage: engine.coverage,
    close: () => engine.close(),
    async observe(resourceUrl, purposes, ctx) {
      const reading = await engine.observe(resourceUrl, purposes, ctx);
      for (const o of reading.observations) metrics.rslFetches.inc({ channel: o.channel, outcome: fetchOutcome(o) });
      return reading;
    },
  };
}

const fetchOutcome = (o: Observation): string =>
  o.cached
    ? 'cached'
    : o.error
      ? o.error.code.toLowerCase()
      : o.status !== null
        ? `${Math.floor(o.status / 100)}xx`
        : 'none';

/** A recovery pass that counts itself and the purchases it resumed. */
export function countedRecoveryPass(pass: () => Promise<number>, metrics: ServiceMetrics): () => Promise<number> {
  return async () => {
    try {
      const resumed = await pass();
      metrics.recoveryPasses.inc({ result: 'ok' });
      metrics.recoveryResumes.inc(resumed);
      return resumed;
    } catch (err) {
      metrics.recoveryPasses.inc({ result: 'failed' });
      throw err;
    }
  };
}
