import type {
  DatabaseSyncInstance as DatabaseSync,
  StatementSyncInstance as StatementSync,
} from '@photostructure/sqlite';
import { ONE_PROCESS_DRIVER } from '../embedded/one-process-driver.js';
import type { SqlDriver, SqlQueryable } from '../sql-driver.js';
import { sqliteText } from './sqlite-dialect.js';

// The read models' SqlDriver on the SQLite connection the events use (one connection: one process per
// directory, and SQLite's single writer). SQLite runs each statement synchronously on this thread, so a
// transaction is only ever open across the awaits of its own `work`: while one is, every other statement of
// this process waits for it (the event store's appends too, through `whenFree`), as they would for PGlite's
// single connection; otherwise they would run inside it.

/** A text's prepared statement, kept: the read models' statements are a fixed set (their filters, a few). */
const KEEP_STATEMENTS = 500;

const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SqliteDriver extends SqlDriver {
  /** Resolves when no transaction of `transaction` is open: then a synchronous write of the caller's may run. */
  whenFree(): Promise<void> | undefined;
}

export function sqliteDriver(db: DatabaseSync, onClose: () => Promise<void>): SqliteDriver {
  const prepared = new Map<string, StatementSync>();
  let open: Promise<void> | undefined;

  function run<Row>(text: string, params: readonly unknown[] = []): Row[] {
    let statement = prepared.get(text);
    if (statement === undefined) {
      if (prepared.size >= KEEP_STATEMENTS) prepared.clear();
      statement = db.prepare(sqliteText(text));
      prepared.set(text, statement);
    }
    return statement.all(...params.map(bound)) as Row[];
  }

  const whenFree = () => open;

  return {
    kind: 'embedded',
    dialect: 'sqlite',
    async query<Row>(text: string, params?: unknown[]) {
      // A turn of the loop first, as for PGlite (src/store/embedded/pglite-driver.ts): a busy moment's reads
      // must not chain as microtasks past the sockets.
      await turnOfTheLoop();
      while (open) await open;
      return run<Row>(text, params);
    },
    async transaction(work, edges) {
      // The check and the taking in one turn: two transactions waiting for the same end cannot both begin.
      while (open) await open;
      let end!: () => void;
      open = new Promise<void>((resolve) => {
        end = resolve;
      });
      try {
        db.exec('BEGIN IMMEDIATE');
        const tx: SqlQueryable = { dialect: 'sqlite', query: async <Row>(t: string, p?: unknown[]) => run<Row>(t, p) };
        try {
          if (edges?.first) await tx.query(edges.first);
          const result = await work(tx);
          if (edges?.last) await tx.query(edges.last);
          db.exec('COMMIT');
          return result;
        } catch (err) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw err;
        }
      } finally {
        open = undefined;
        end();
      }
    },
    whenFree,
    ...ONE_PROCESS_DRIVER,
    async close() {
      while (open) await open;
      try {
        if (db.isOpen) db.close();
      } finally {
        await onClose();
      }
    },
  };
}

/** A parameter as SQLite binds it: JSON text for arrays and objects (PostgreSQL's `$1::text[]`), 1/0 for booleans. */
function bound(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && !(value instanceof Uint8Array)) return JSON.stringify(value);
  return value;
}
