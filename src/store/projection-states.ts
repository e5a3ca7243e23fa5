import type { EventStore, GlobalPosition } from './port.js';
import type { SqlDriver } from './sql/sql-driver.js';

// Where a projection keeps its checkpoint and its state. Both travel together in one save so a
// restart never sees a state that is ahead of or behind its checkpoint.
// SQL adapters: one row of the `projections` table, written by a single upsert.
// EventStoreDB: the newest event of a stream of its own (see esdb/esdb-projection-states.ts).

export interface StoredProjectionState {
  version: number; // the projection's version when the state was saved; a different version means rebuild
  position: GlobalPosition; // the last event folded into `state`
  state: unknown; // JSON
}

export interface ProjectionStates {
  load(name: string): Promise<StoredProjectionState | undefined>;
  save(name: string, saved: StoredProjectionState): Promise<void>;
  drop(name: string): Promise<void>;
}

/** What `openStore` returns: the port plus the projection-state store that lives beside it. */
export interface EventStoreWithProjections extends EventStore {
  projectionStates(): ProjectionStates;
  /**
   * The SQL database the events live in (embedded PGlite or PostgreSQL): the read models are tables
   * beside the events there. Absent for EventStoreDB, whose read models live in READ_STORE_URL.
   */
  readonly sql?: SqlDriver;
  /** Calls `wake` after any append this store sees (its own, and other processes' where it can hear them). */
  onAppend?(wake: () => void): () => void;
}
