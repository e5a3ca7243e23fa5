// Messages between the store (src/store/embedded/pglite-worker-driver.ts) and its PGlite thread
// (pglite-worker.ts). Every request carries an id its answer repeats.

export type ToWorker =
  | { op: 'query'; id: number; text: string; params?: unknown[]; tx?: number }
  /** `first`: a parameterless statement run right after BEGIN, in the same message (SqlDriver's edges). */
  | { op: 'begin'; id: number; tx: number; first?: string }
  /** `last`: run right before COMMIT, in the same message; not run when rolling back. */
  | { op: 'end'; id: number; tx: number; commit: boolean; last?: string }
  | { op: 'close'; id: number };

/** A database error's message and own fields (code, detail…), which the store reads to map it. */
export type WorkerError = { message: string; name?: string } & Record<string, unknown>;

export type FromWorker = { id: number; rows: unknown[] } | { id: number; error: WorkerError };
