import type { ReadModels } from '../../projections/read-models.js';
import type { Config } from '../config/config.js';
import type { EventStoreWithProjections } from '../store/store-with-projections.js';
import type { OperatorDeps } from './operator-deps.js';

// What an operator use-case runs on: the configuration, a clock, the store and the read models. The
// service hands its own open ones (attachedSession); the CLI, when no service runs, opens them on
// first use and closes them after (ops/operator/context.ts). A use-case asks only for what it needs,
// so a command on a full purchase id opens the store alone, as the CLI always did.

export interface OperatorSession {
  config: Config;
  now: () => Date;
  store(): Promise<EventStoreWithProjections>;
  /** The read models, including every event appended before the call. */
  models(): Promise<ReadModels>;
}

/** How long a use-case inside the service waits for the read models to include the latest event. */
const ATTACHED_CATCH_UP_MS = 5_000;

/** The running service's store and read models, used as they are (never opened or closed here). */
export function attachedSession(deps: Pick<OperatorDeps, 'config' | 'now' | 'store' | 'models'>): OperatorSession {
  return {
    config: deps.config,
    now: deps.now,
    store: async () => deps.store,
    async models() {
      await deps.models.caughtUp(ATTACHED_CATCH_UP_MS);
      return deps.models;
    },
  };
}
