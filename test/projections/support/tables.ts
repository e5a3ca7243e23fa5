import { READ_MODEL_TABLES } from '../../../projections/schema.js';
import type { SqlQueryable } from '../../../src/store/sql-driver.js';

/** Every read-model table's rows in a stable order, to compare a live projection with a rebuild. */
export async function readModelTables(db: SqlQueryable): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of READ_MODEL_TABLES) {
    if (db.dialect === 'sqlite') {
      // Whole rows as they are stored, sorted by their text as PostgreSQL's branch sorts by `t::text`.
      const rows = await db.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
      out[table] = rows.map((row) => ({ ...row })).sort((a, b) => cmp(JSON.stringify(a), JSON.stringify(b)));
      continue;
    }
    const [r] = await db.query<{ rows: string | null }>(
      `SELECT json_agg(t ORDER BY t::text)::text AS rows FROM ${table} t`,
    );
    out[table] = JSON.parse(r?.rows ?? '[]');
  }
  return out;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
