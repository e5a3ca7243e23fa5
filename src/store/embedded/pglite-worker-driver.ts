import { Worker } from 'node:worker_threads';
import { siblingModule } from '../../runtime/sibling-module.js';
import type { SqlDriver, SqlQueryable } from '../sql-driver.js';
import type { FromWorker, ToWorker, WorkerError } from './pglite-worker-protocol.js';
import { ONE_PROCESS_DRIVER } from './one-process-driver.js';

/** Node 20 does not carry tsx's loader into workers: under tsx the worker registers it, then imports its entry. */
function tsxBoot(entry: URL): URL {
  const boot =
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); ` +
    `register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

type Request = ToWorker extends infer M ? (M extends ToWorker ? Omit<M, 'id'> : never) : never;

/** A database error as the store reads it: its message, and its fields (a unique violation's `code`). */
function rebuilt(e: WorkerError): Error {
  const err = new Error(e.message);
  Object.assign(err, e);
  return err;
}

/**
 * PGlite (the embedded PostgreSQL) on a worker thread, behind the same SqlDriver as on the main thread:
 * same SQL, same serialization of queries and transactions (PGlite's own), one process per directory
 * (the lock, held by the caller). The service's event loop no longer runs the database: a quote's
 * append costs it a message each way (docs/decisions.md, "The embedded engine").
 * The worker keeps the process alive only while a request is outstanding.
 */
export async function pgliteWorkerDriver(
  dir: string,
  startParams: string[],
  onClose: () => Promise<void>,
): Promise<SqlDriver> {
  const entry = siblingModule(import.meta.url, './pglite-worker');
  const worker = new Worker(entry.typescript ? tsxBoot(entry.url) : entry.url, { workerData: { dir, startParams } });
  worker.unref();
  const pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let nextTx = 1;
  let gone: Error | undefined;

  const fail = (err: Error) => {
    gone ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker.unref();
  };
  worker.on('message', (m: FromWorker) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) worker.unref();
    if ('error' in m) p.reject(rebuilt(m.error));
    else p.resolve(m.rows);
  });
  worker.on('error', (err) => fail(new Error(`embedded store thread failed: ${err.message}`)));
  worker.on('exit', (code) => fail(new Error(`embedded store thread exited (${code})`)));

  const send = (request: Request): Promise<unknown[]> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise<unknown[]>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as ToWorker);
    });
  };
  const queryOn =
    (tx?: number): SqlQueryable['query'] =>
    async <Row>(text: string, params?: unknown[]) =>
      (await send({ op: 'query', text, ...(params ? { params } : {}), ...(tx ? { tx } : {}) })) as Row[];

  // The first query waits for the database to open and reports why it could not.
  try {
    await send({ op: 'query', text: 'SELECT 1' });
  } catch (err) {
    await worker.terminate();
    throw err;
  }

  return {
    kind: 'embedded',
    dialect: 'postgres',
    query: queryOn(),
    async transaction(work, edges) {
      const tx = nextTx++;
      // The edges travel with BEGIN and COMMIT: a message each way fewer for each (an append's lock).
      await send({ op: 'begin', tx, ...(edges?.first ? { first: edges.first } : {}) });
      let result;
      try {
        result = await work({ dialect: 'postgres', query: queryOn(tx) });
      } catch (err) {
        await send({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      await send({ op: 'end', tx, commit: true, ...(edges?.last ? { last: edges.last } : {}) });
      return result;
    },
    ...ONE_PROCESS_DRIVER,
    async close() {
      try {
        if (!gone) await send({ op: 'close' });
        await worker.terminate();
      } finally {
        await onClose();
      }
    },
  };
}
