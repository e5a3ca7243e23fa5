import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlEventStoreOptions } from './sql/sql-event-store.js';
import type { EventStoreWithProjections } from './store-with-projections.js';

/**
 * Opens the event store named by EVENT_STORE_URL:
 *   file:<dir>                      embedded PGlite in <dir> (created if missing; relative paths resolve from the cwd)
 *   postgres://… | postgresql://…   PostgreSQL; optional `?schema=<name>` for the tables' schema
 *   esdb://… | kurrentdb://…        EventStoreDB / KurrentDB
 * Adapters are imported on demand so the embedded default never loads the gRPC client.
 */
export async function openStore(url: string, opts: SqlEventStoreOptions = {}): Promise<EventStoreWithProjections> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'file': {
      const { openEmbeddedStore } = await import('./embedded/open-embedded.js');
      return openEmbeddedStore(fileUrlToDir(url), opts);
    }
    case 'postgres':
    case 'postgresql': {
      const { openPostgresStore } = await import('./postgres/open-postgres.js');
      return openPostgresStore(url, opts);
    }
    case 'esdb':
    case 'esdb+discover':
    case 'kurrentdb':
    case 'kurrentdb+discover': {
      const { openEsdbStore } = await import('./esdb/esdb-event-store.js');
      return openEsdbStore(url, opts);
    }
    default:
      throw new TypeError(
        `EVENT_STORE_URL ${JSON.stringify(redact(url))}: ` +
          'expected file:<dir>, postgres://…, esdb://… or kurrentdb://…',
      );
  }
}

// `file:data/events` and `file:/abs/dir` are paths as written; `file:///abs/dir` is a proper file URL.
export function fileUrlToDir(url: string): string {
  if (url.startsWith('file://')) return fileURLToPath(url);
  return path.resolve(decodeURIComponent(url.slice('file:'.length)));
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
