import type { PGlite } from '@electric-sql/pglite';
import type { SqlDriver, SqlQueryable } from '../sql/sql-driver.js';

/**
 * PGlite is one single-connection Postgres in this process: queries are serialized by PGlite
 * itself, and the directory lock keeps every other process out, so there are no other writers
 * to watch: the store's own doorbell wakes its subscriptions.
 */
export function pgliteDriver(db: PGlite, onClose: () => Promise<void>): SqlDriver {
  const wrap = (q: Pick<PGlite, 'query'>): SqlQueryable => ({
    query: async <Row>(text: string, params?: unknown[]) => (await q.query<Row>(text, params)).rows,
  });
  const base = wrap(db);
  return {
    kind: 'embedded',
    query: base.query,
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    announceAppend: async () => {},
    watchOtherWriters: async () => async () => {},
    translateError: (err) => err,
    // One process per embedded store (the directory lock): it always leads.
    tryLease: async () => ({ lost: new Promise<void>(() => {}), release: async () => {} }),
    async close() {
      try {
        await db.close();
      } finally {
        await onClose();
      }
    },
  };
}
