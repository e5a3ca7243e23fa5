import type { PGlite } from '@electric-sql/pglite';
import type { SqlDriver, SqlQueryable } from '../sql-driver.js';
import { ONE_PROCESS_DRIVER } from './one-process-driver.js';

/**
 * PGlite runs each query synchronously on this thread and hands back an already settled promise, so
 * without this a busy moment's queries, and the request code between them, chain as microtasks and
 * the event loop never polls: under 500 connections of quotes the loop went up to 1.1 s without
 * reading a socket (a CPU profile showed one unbroken run of PGlite calls and quote code), answers
 * arrived in bursts, and some connections waited past 10 s. Waiting for the loop's next turn before
 * each query lets it read and accept in between, as a networked database's round trip would.
 */
const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite is one single-connection Postgres in this process: queries are serialized by PGlite
 * itself, and the directory lock keeps every other process out, so there are no other writers
 * to watch: the store's own doorbell wakes its subscriptions.
 */
export function pgliteDriver(db: PGlite, onClose: () => Promise<void>): SqlDriver {
  const wrap = (q: Pick<PGlite, 'query'>): SqlQueryable => ({
    dialect: 'postgres',
    query: async <Row>(text: string, params?: unknown[]) => {
      await turnOfTheLoop();
      return (await q.query<Row>(text, params)).rows;
    },
  });
  const base = wrap(db);
  return {
    kind: 'embedded',
    dialect: 'postgres',
    query: base.query,
    transaction: (work, edges) =>
      db.transaction(async (tx) => {
        const inner = wrap(tx);
        if (edges?.first) await inner.query(edges.first);
        const result = await work(inner);
        if (edges?.last) await inner.query(edges.last);
        return result;
      }),
    ...ONE_PROCESS_DRIVER,
    async close() {
      try {
        await db.close();
      } finally {
        await onClose();
      }
    },
  };
}
