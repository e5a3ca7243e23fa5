import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlEventStoreOptions } from '../sql/sql-event-store.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';

/**
 * Opens the event store named by EVENT_STORE_URL:
 *   file:<dir>                      the embedded store in <dir> (created if missing; relative paths resolve from the
 *                                   cwd): SQLite, unless <dir> already holds a PGlite cluster, which keeps opening
 *                                   as PGlite (docs/decisions.md, "SQLite, the embedded engine")
 *   sqlite:<dir> | pglite:<dir>     the embedded store in <dir> on that engine, whatever the directory holds
 *   postgres://… | postgresql://…   PostgreSQL; optional `?schema=<name>` for the tables' schema
 *   esdb://… | kurrentdb://…        EventStoreDB / KurrentDB
 * Adapters are imported on demand so the embedded default never loads the gRPC client.
 */
export async function openStore(url: string, opts: SqlEventStoreOptions = {}): Promise<EventStoreWithProjections> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'file': {
      const dir = fileUrlToDir(url);
      return holdsPglite(dir) ? openPglite(dir, opts) : openSqlite(dir, opts);
    }
    case 'sqlite':
      return openSqlite(embeddedDirOf(url)!, opts);
    case 'pglite':
      return openPglite(embeddedDirOf(url)!, opts);
    case 'postgres':
    case 'postgresql': {
      const { openPostgresStore } = await import('../postgres/open-postgres.js');
      return openPostgresStore(url, opts);
    }
    case 'esdb':
    case 'esdb+discover':
    case 'kurrentdb':
    case 'kurrentdb+discover': {
      const { openEsdbStore } = await import('../esdb/esdb-event-store.js');
      return openEsdbStore(url, opts);
    }
    default:
      throw new TypeError(
        `EVENT_STORE_URL ${JSON.stringify(redact(url))}: ` +
          'expected file:<dir>, sqlite:<dir>, pglite:<dir>, postgres://…, esdb://… or kurrentdb://…',
      );
  }
}

/** The directory of an embedded store's URL (`file:`, `sqlite:`, `pglite:`); undefined for a server's. */
export function embeddedDirOf(url: string): string | undefined {
  const scheme = /^(file|sqlite|pglite):/i.exec(url)?.[1];
  if (scheme === undefined) return undefined;
  return fileUrlToDir(scheme.toLowerCase() === 'file' ? url : `file:${url.slice(scheme.length + 1)}`);
}

/** Whether `dir` holds a PGlite (PostgreSQL) cluster: its PG_VERSION file. */
export const holdsPglite = (dir: string): boolean => existsSync(path.join(dir, 'PG_VERSION'));

async function openSqlite(dir: string, opts: SqlEventStoreOptions): Promise<EventStoreWithProjections> {
  const { openSqliteStore } = await import('../sqlite/open-sqlite.js');
  return openSqliteStore(dir, opts);
}

async function openPglite(dir: string, opts: SqlEventStoreOptions): Promise<EventStoreWithProjections> {
  const { openEmbeddedStore } = await import('../embedded/open-embedded.js');
  return openEmbeddedStore(dir, opts);
}

// `file:data/events` and `file:/abs/dir` are paths as written; `file:///abs/dir` is a proper file URL.
export function fileUrlToDir(url: string): string {
  if (url.startsWith('file://')) return fileURLToPath(url);
  return path.resolve(decodeURIComponent(url.slice('file:'.length)));
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
