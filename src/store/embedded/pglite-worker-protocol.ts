// Messages between the store (src/store/embedded/pglite-worker-driver.ts) and its PGlite thread
// (pglite-worker.ts). Every request carries an id its answer repeats.

export type ToWorker =
  | { op: 'query'; id: number; text: string; params?: unknown[]; tx?: number }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'close'; id: number };

/** A database error's message and own fields (code, detail…), which the store reads to map it. */
export type WorkerError = { message: string; name?: string } & Record<string, unknown>;

export type FromWorker = { id: number; rows: unknown[] } | { id: number; error: WorkerError };
