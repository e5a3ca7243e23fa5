import type { ServiceConfig } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import { countedRecoveryPass } from '../metrics/instrument.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { InFlight } from '../money-path/inflight.js';
import { recoveryPass, startRecoveryWorker, type RecoveryWorker } from '../money-path/recovery-worker.js';
import { resumePurchase } from '../money-path/resume.js';
import type { EventStoreWithProjections } from '../store/store-with-projections.js';
import { startLeadership, type Leadership } from '../../projections/leadership.js';
import { startProjector } from '../../projections/projector.js';
import { recoveryCandidates } from '../../projections/queries/recovery-candidates.js';
import type { ReadModels } from '../../projections/read-models.js';
import type { Cleanups } from './cleanups.js';
import type { ServiceMoneyDeps } from './money-path-deps.js';

// The work one leader per database does beside serving HTTP: the projector that keeps the read
// models, and the recovery worker that resumes paid-but-undelivered purchases.

export interface Background {
  leadership: Leadership;
  /** Runs one recovery pass now if this instance leads. */
  recover(): Promise<void>;
}

export function startBackground(
  config: ServiceConfig,
  parts: {
    log: Logger;
    store: EventStoreWithProjections;
    readModels: ReadModels;
    moneyDeps: ServiceMoneyDeps;
    inflight: InFlight<unknown>;
    metrics: ServiceMetrics;
  },
  cleanups: Cleanups,
): Background {
  const { log, store, readModels, inflight } = parts;
  // Recovery: on start and every RECOVERY_INTERVAL_MS, resume paid-but-undelivered purchases. The
  // candidates are an indexed query of the report view, once it has caught up with the store.
  const pass = recoveryPass({
    caughtUp: (ms) => readModels.caughtUp(ms),
    candidates: () => recoveryCandidates(readModels.db),
    resume: (id) => resumePurchase(parts.moneyDeps, id),
    inflight,
    log,
    catchUpMs: Math.min(config.recoveryIntervalMs, 10_000),
  });
  // One leader per database runs the projector and the recovery worker; every instance serves HTTP.
  let worker: RecoveryWorker | undefined;
  const leadership: Leadership = startLeadership({
    db: readModels.db,
    name: 'read-models',
    log,
    lead: async () => {
      const projector = startProjector({
        db: readModels.db,
        feed: readModels.feed,
        log,
        onAdvance: () => readModels.advanced(),
        ...(store.onAppend ? { onAppend: (wake) => store.onAppend!(wake) } : {}),
      });
      const recovery = startRecoveryWorker({
        intervalMs: config.recoveryIntervalMs,
        log,
        pass: countedRecoveryPass(pass, parts.metrics),
      });
      worker = recovery;
      return async () => {
        worker = undefined;
        await recovery.stop();
        await projector.stop();
      };
    },
  });
  cleanups.push(async () => {
    await leadership.stop();
    await inflight.drain();
  });
  return {
    leadership,
    recover: async () => {
      await worker?.runNow();
    },
  };
}
