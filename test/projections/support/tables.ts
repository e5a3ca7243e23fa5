import { READ_MODEL_TABLES } from '../../../projections/schema.js';
import type { SqlQueryable } from '../../../src/store/sql/sql-driver.js';

/** Every read-model table's rows in a stable order, to compare a live projection with a rebuild. */
export async function readModelTables(db: SqlQueryable): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of READ_MODEL_TABLES) {
    const [r] = await db.query<{ rows: string | null }>(
      `SELECT json_agg(t ORDER BY t::text)::text AS rows FROM ${table} t`,
    );
    out[table] = JSON.parse(r?.rows ?? '[]');
  }
  return out;
}
