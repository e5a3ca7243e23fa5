import type { ReadModels } from '../../projections/read-models.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import type { EventStoreWithProjections } from '../store/store-with-projections.js';

/** What the operator listener needs from the running service: its store, read models and clock. */
export interface OperatorDeps {
  config: Config;
  log: Logger;
  store: EventStoreWithProjections;
  models: ReadModels;
  now: () => Date;
  isLeader: () => boolean;
}
