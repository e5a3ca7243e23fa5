import { EVENT_FACTS_V1, EVENT_FACTS_V2, EVENT_FACTS_V3, EVENT_FACTS_V4, EVENT_FACTS_V5 } from './event-facts-sql.js';
import type { SqlDriver } from '../sql-driver.js';

// The event store schema, shared by PGlite and PostgreSQL. Migrations are append-only: never edit
// one that has shipped, add the next.
//
// `position` comes from an identity sequence. Sequences are not transactional, so a rolled-back
// append leaves a hole; readers never wait for holes because positions are assigned and committed
// in one order (see APPEND_ORDER_LOCK in statements.ts).
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE events (
     position  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     stream    text        NOT NULL,
     revision  bigint      NOT NULL CHECK (revision >= 0),
     id        uuid        NOT NULL,
     type      text        NOT NULL,
     data      jsonb       NOT NULL,
     metadata  jsonb       NOT NULL,
     created   timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT events_stream_revision UNIQUE (stream, revision)
   );
   CREATE INDEX events_stream_id ON events (stream, id);
   CREATE TABLE projections (
     name      text        PRIMARY KEY,
     version   integer     NOT NULL,
     position  bigint      NOT NULL,
     state     jsonb       NOT NULL,
     updated   timestamptz NOT NULL DEFAULT now()
   );`,
  // 2: the read models' facts column (see event-facts-sql.ts).
  EVENT_FACTS_V1,
  // 3: a stream's events are found through events_stream_revision (a stream holds a handful), so the
  // retried-append lookup by id needs no index of its own; this one cost every append a second
  // random-keyed B-tree insert, which is what grew with the store (docs/decisions.md, "Read side").
  `DROP INDEX IF EXISTS events_stream_id`,
  // 4: the facts name every resource a purchase covers (event-facts-sql.ts); the feed reads facts_v2.
  EVENT_FACTS_V2,
  // 5: the projection-state table of migration 1 was never read or written by anything: the read models
  // keep their own checkpoint beside their tables (projections/). Dropped with the code that served it
  // (docs/decisions.md, "Reviewable modules and dead code").
  `DROP TABLE IF EXISTS projections`,
  // 6: a Delivered event's facts say which of its resources the report states changed (a revalidation's);
  // the feed reads facts_v3.
  EVENT_FACTS_V3,
  // 7: a Delivered event's facts carry each resource's signals_summary and its observations' standard and
  // sha256 (docs/wire.md §15).
  EVENT_FACTS_V4,
  // 8: the same facts, computed without the wrapper levels of versions 3 and 4 where they add nothing (a
  // Quoted event's facts cost three times version 2's); the feed reads facts_v5.
  EVENT_FACTS_V5,
];

/**
 * Brings the schema up to date. Several service processes may start at once against one
 * PostgreSQL database: a session advisory lock keyed on the schema name makes them take turns,
 * so only the first runs the DDL and the others find it done.
 */
export async function migrate(db: SqlDriver, schema: string | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    // Transaction-scoped: released by COMMIT/ROLLBACK even if this process dies mid-migration.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('rights-preflight.migrate'), hashtext($1))`, [schema ?? '']);
    if (schema !== undefined) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS store_migrations (
         version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`,
    );
    const rows = await tx.query<{ version: number }>(`SELECT version FROM store_migrations`);
    const applied = new Set(rows.map((r) => Number(r.version)));
    for (const [index, ddl] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (applied.has(version)) continue;
      for (const statement of splitStatements(ddl)) await tx.query(statement);
      await tx.query(`INSERT INTO store_migrations (version) VALUES ($1)`, [version]);
    }
  });
}

// Extended-protocol queries (what both drivers use with parameters) take one statement each.
function splitStatements(ddl: string): string[] {
  return ddl
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): string {
  if (!IDENT.test(schema)) throw new TypeError(`schema name ${JSON.stringify(schema)} must match ${IDENT.source}`);
  return schema;
}

export function quoteIdent(name: string): string {
  return `"${assertSchemaName(name)}"`;
}
