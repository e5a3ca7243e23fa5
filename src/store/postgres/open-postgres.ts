import type pg from 'pg';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import { assertSchemaName, migrate } from '../sql/schema.js';
import { sqlEventStore, type SqlEventStoreOptions } from '../sql/sql-event-store.js';
import { pgDriver } from './pg-driver.js';
import { translatePgError } from './unavailable.js';

/**
 * PostgreSQL at `url`. An optional `schema` query parameter (`postgres://…/db?schema=rights`)
 * puts the store's tables in that schema (created if missing) via the connection's search_path;
 * the tests use it to give every store instance a database of its own.
 */
export async function openPostgresStore(
  url: string,
  opts: SqlEventStoreOptions = {},
): Promise<EventStoreWithProjections> {
  const { connectionString, schema } = splitSchema(url);
  const config: pg.PoolConfig = { connectionString, max: 10 };
  if (schema !== undefined) config.options = `-c search_path=${schema}`;
  const channel = `rights_events_${schema ?? 'default'}`;
  const driver = pgDriver(config, channel, opts.log);
  try {
    await migrate(driver, schema);
  } catch (err) {
    await driver.close().catch(() => {});
    throw translatePgError(err);
  }
  opts.log?.info({ schema: schema ?? '(search_path default)' }, 'PostgreSQL event store open');
  return sqlEventStore(driver, opts);
}

function splitSchema(url: string): { connectionString: string; schema?: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  if (schema === null) return { connectionString: url };
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), schema: assertSchemaName(schema) };
}
