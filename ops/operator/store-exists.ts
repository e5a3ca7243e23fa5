import { readdir } from 'node:fs/promises';
import { embeddedDirOf } from '../../src/store/open/open.js';
import { SQLITE_FILE } from '../../src/store/sqlite/sqlite-file.js';

// Whether EVENT_STORE_URL names a store that exists, asked without creating one: opening the store
// creates it (a SQLite file or a 39 MB PGlite cluster, or the tables on PostgreSQL), which a read-only operator
// command pointed at the wrong DATA_DIR or database must never do.
//
//   if (!(await storeExists('file:/srv/rights/events'))) … exit 2, nothing created

export async function storeExists(url: string): Promise<boolean> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const dir = embeddedDirOf(url);
  if (dir !== undefined) {
    const entries = await readdir(dir).catch(() => [] as string[]);
    return entries.includes('PG_VERSION') || entries.includes(SQLITE_FILE);
  }
  if (scheme === 'postgres' || scheme === 'postgresql') {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    parsed.searchParams.delete('schema');
    const { default: pg } = await import('pg'); // only a PostgreSQL store loads the client
    const client = new pg.Client({ connectionString: parsed.toString() });
    await client.connect();
    try {
      const r = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
        `${schema ? `"${schema.replace(/"/g, '""')}".` : ''}store_migrations`,
      ]);
      return r.rows[0]?.found != null;
    } finally {
      await client.end();
    }
  }
  return true; // EventStoreDB: the server holds the store; there is nothing to create by connecting
}
