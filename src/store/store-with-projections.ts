import type { EventStore } from './port.js';
import type { SqlDriver } from './sql-driver.js';

/** What `openStore` returns: the port plus what the projector needs beside it. */
export interface EventStoreWithProjections extends EventStore {
  /**
   * The SQL database the events live in (embedded SQLite or PGlite, or PostgreSQL): the read models are tables
   * beside the events there. Absent for EventStoreDB, whose read models live in READ_STORE_URL.
   */
  readonly sql?: SqlDriver;
  /** Calls `wake` after any append this store sees (its own, and other processes' where it can hear them). */
  onAppend?(wake: () => void): () => void;
  /**
   * Calls `wake` after an append to `stream` that this store made, and after any append another process
   * announced (whose stream it cannot tell): a follower of one stream is not woken by every other stream's
   * appends (docs/decisions.md, "The embedded engine").
   */
  onStreamAppend?(stream: string, wake: () => void): () => void;
}
