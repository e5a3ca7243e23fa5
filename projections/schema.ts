import type { SqlDriver, SqlQueryable } from '../src/store/sql/sql-driver.js';

// The read models' tables. They live in the SQL database of the events (or, for EventStoreDB, in the
// read store): one row per purchase, per open investigation, per refund request, per delivered
// report, per day × origin × purpose × classification, and one checkpoint for all of them.
//
// All read models advance together: one transaction per batch writes every table's row changes and
// the checkpoint, so they always describe the same prefix of `$all`. Bump READ_MODEL_VERSION whenever
// a table or a projection's meaning changes: the tables are then dropped, recreated and rebuilt from
// the first event, in the background (the service answers meanwhile).

export const READ_MODEL_VERSION = 1;
export const CHECKPOINT = 'read-models';

export const READ_MODEL_TABLES = [
  'rm_purchases',
  'rm_queue',
  'rm_refunds',
  'rm_compliance',
  'rm_compliance_daily',
] as const;

const CREATE_TABLES = [
  `CREATE TABLE rm_purchases (
     purchase_id text PRIMARY KEY, status text NOT NULL, submissions integer NOT NULL, locked_from text,
     sku text NOT NULL, resource text NOT NULL, origin text, purpose text NOT NULL, user_class text NOT NULL,
     tier text NOT NULL, geo text, classification text NOT NULL, decision text NOT NULL, observed_at text,
     rsl_document_sha256 jsonb NOT NULL, price_micro text NOT NULL, expires_at text NOT NULL,
     quoted_at text NOT NULL, payer text, settled_amount_micro text,
     network text, transaction text, evidence_key_id text, report_sha256 text, evidence_sha256 text,
     delivery_proof_sha256 text, delivered_at text, lock_reason text, updated_position bigint NOT NULL)`,
  `CREATE TABLE rm_queue (
     purchase_id text PRIMARY KEY, kind text NOT NULL, reason text NOT NULL, details jsonb NOT NULL,
     locked_from text, since_position bigint NOT NULL, since text NOT NULL)`,
  `CREATE TABLE rm_refunds (
     purchase_id text PRIMARY KEY, status text NOT NULL, reason text NOT NULL, amount_micro text NOT NULL,
     requested_at text NOT NULL, reviewed_at text, paid_transaction text, updated_position bigint NOT NULL)`,
  `CREATE TABLE rm_compliance (
     purchase_id text PRIMARY KEY, sku text NOT NULL, resource text NOT NULL, origin text, purpose text NOT NULL,
     user_class text NOT NULL, geo text, classification text NOT NULL, decision text NOT NULL, observed_at text,
     rsl_document_sha256 jsonb NOT NULL, evidence_key_id text, report_sha256 text NOT NULL,
     evidence_sha256 text NOT NULL, delivery_proof_sha256 text NOT NULL, payer text, amount_micro text,
     network text, transaction text, delivered_at text NOT NULL, delivered_day text NOT NULL,
     held boolean NOT NULL, held_reason text, refund_status text NOT NULL)`,
  `CREATE TABLE rm_compliance_daily (
     day text NOT NULL, origin text NOT NULL, purpose text NOT NULL, classification text NOT NULL,
     reports bigint NOT NULL, amount_micro numeric NOT NULL, held bigint NOT NULL, refunded bigint NOT NULL,
     PRIMARY KEY (day, origin, purpose, classification))`,
];

// Secondary indexes: created with the tables, except during a full rebuild, which builds them once
// at the end (cheaper than maintaining them row by row while every row is written).
const CREATE_INDEXES = [
  // Recovery candidates are an index scan, however many purchases were ever quoted.
  `CREATE INDEX rm_purchases_recovery ON rm_purchases (updated_position)
     WHERE status IN ('checkpointed', 'settlement_submitted', 'settled')`,
  `CREATE INDEX rm_purchases_status ON rm_purchases (status, quoted_at)`,
  `CREATE INDEX rm_purchases_quoted ON rm_purchases (quoted_at, purchase_id)`,
  `CREATE INDEX rm_purchases_prefix ON rm_purchases (purchase_id text_pattern_ops)`,
  `CREATE INDEX rm_refunds_status ON rm_refunds (status, requested_at)`,
  // Exports page through one range of days in (delivered_day, purchase_id) order.
  `CREATE INDEX rm_compliance_day ON rm_compliance (delivered_day, purchase_id)`,
];

export interface Checkpoint {
  version: number;
  position: bigint;
}

/**
 * Makes sure the read-model tables exist at READ_MODEL_VERSION. Several processes may start at once
 * against one PostgreSQL: a transaction-scoped advisory lock makes them take turns. Returns whether
 * the tables were (re)created empty, i.e. a rebuild from the first event is due.
 */
export async function ensureReadModels(db: SqlDriver): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    await tx.query(
      `SELECT pg_advisory_xact_lock(hashtext('rights-preflight.read-models'),
        hashtext(coalesce(current_schema(), '')))`,
    );
    await tx.query(
      `CREATE TABLE IF NOT EXISTS rm_checkpoint (
         name text PRIMARY KEY, version integer NOT NULL, position bigint NOT NULL,
         updated timestamptz NOT NULL DEFAULT now())`,
    );
    const [row] = await tx.query<{ version: number }>(`SELECT version FROM rm_checkpoint WHERE name = $1`, [
      CHECKPOINT,
    ]);
    if (row && Number(row.version) === READ_MODEL_VERSION) return { created: false };
    await resetTables(tx);
    return { created: true };
  });
}

/** Drops and recreates every read-model table, checkpoint at 0 (inside the caller's transaction). */
export async function resetTables(tx: SqlQueryable, opts: { indexes: boolean } = { indexes: true }): Promise<void> {
  for (const table of READ_MODEL_TABLES) await tx.query(`DROP TABLE IF EXISTS ${table}`);
  for (const ddl of CREATE_TABLES) await tx.query(ddl);
  if (opts.indexes) await createIndexes(tx);
  await tx.query(
    `INSERT INTO rm_checkpoint (name, version, position) VALUES ($1, $2, 0)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = 0, updated = now()`,
    [CHECKPOINT, READ_MODEL_VERSION],
  );
}

export async function createIndexes(tx: SqlQueryable): Promise<void> {
  for (const ddl of CREATE_INDEXES) await tx.query(ddl.replace('CREATE INDEX', 'CREATE INDEX IF NOT EXISTS'));
}

export async function readCheckpoint(db: SqlQueryable): Promise<Checkpoint> {
  const [row] = await db.query<{ version: number; position: string }>(
    `SELECT version, position::text AS position FROM rm_checkpoint WHERE name = $1`,
    [CHECKPOINT],
  );
  if (!row) throw new Error('read models are not set up (ensureReadModels was not run)');
  return { version: Number(row.version), position: BigInt(row.position) };
}
