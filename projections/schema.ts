import { inDialect, type InDialects, type SqlDriver, type SqlQueryable } from '../src/store/sql-driver.js';

// The read models' tables. They live in the SQL database of the events (or, for EventStoreDB, in the
// read store): one row per purchase, per open investigation, per refund request, per day × origin ×
// purpose × classification, and one checkpoint for all of them. The compliance read model (one row
// per delivered report) is a view over the purchase and refund rows: everything it shows is already
// written there, and writing it again cost a third of a PostgreSQL rebuild (docs/decisions.md).
//
// All read models advance together: one transaction per batch writes every table's row changes and
// the checkpoint, so they always describe the same prefix of `$all`. Bump READ_MODEL_VERSION whenever
// a table or a projection's meaning changes: the tables are then dropped, recreated and rebuilt from
// the first event, in the background (the service answers meanwhile).

export const READ_MODEL_VERSION = 6;
export const CHECKPOINT = 'read-models';

const TABLES = ['rm_purchases', 'rm_queue', 'rm_refunds', 'rm_compliance_daily'] as const;
const COMPLIANCE_VIEW = 'rm_compliance';
/** Every read model a reader can select from: the tables and the compliance view. */
export const READ_MODEL_TABLES = [...TABLES, COMPLIANCE_VIEW] as const;

// The view's day column. The export's index is on this very expression, so the planner uses it.
const DELIVERED_DAY: InDialects = { postgres: 'left(delivered_at, 10)', sqlite: 'substr(delivered_at, 1, 10)' };

// A table's text is the same in both dialects (SQLite takes PostgreSQL's type names; `"transaction"` is quoted
// because it is one of SQLite's keywords); the view and a few indexes have SQLite text of their own.

const CREATE_TABLES = [
  `CREATE TABLE rm_purchases (
     purchase_id text PRIMARY KEY, status text NOT NULL, submissions integer NOT NULL, locked_from text,
     sku text NOT NULL, resource text NOT NULL, origin text, purpose text NOT NULL, user_class text NOT NULL,
     tier text NOT NULL, geo text, classification text NOT NULL, decision text NOT NULL, observed_at text,
     rsl_document_sha256 jsonb NOT NULL, resources jsonb, price_micro text NOT NULL, expires_at text NOT NULL,
     quoted_at text NOT NULL, payer text, settled_amount_micro text,
     network text, "transaction" text, evidence_key_id text, report_sha256 text, evidence_sha256 text,
     delivery_proof_sha256 text, delivered_at text, changed jsonb, signals_summary jsonb, signals jsonb,
     lock_reason text, updated_position bigint NOT NULL)`,
  `CREATE TABLE rm_queue (
     purchase_id text PRIMARY KEY, kind text NOT NULL, reason text NOT NULL, details jsonb NOT NULL,
     locked_from text, since_position bigint NOT NULL, since text NOT NULL)`,
  `CREATE TABLE rm_refunds (
     purchase_id text PRIMARY KEY, status text NOT NULL, reason text NOT NULL, amount_micro text NOT NULL,
     requested_at text NOT NULL, reviewed_at text, paid_transaction text, updated_position bigint NOT NULL)`,
  // Per SKU too (since READ_MODEL_VERSION 4), so a report counts revalidations; `changed` counts the lines
  // whose delivered report says the resource changed since its checkpoint; `restricted_by_other_signal`
  // (since version 5, the signals beside RSL) those whose signals_summary is RESTRICTED_BY_OTHER_SIGNAL.
  `CREATE TABLE rm_compliance_daily (
     day text NOT NULL, origin text NOT NULL, purpose text NOT NULL, classification text NOT NULL,
     sku text NOT NULL, reports bigint NOT NULL, amount_micro numeric NOT NULL, held bigint NOT NULL,
     refunded bigint NOT NULL, changed bigint NOT NULL, restricted_by_other_signal bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (day, origin, purpose, classification, sku))`,
];

// complianceOf (compliance/compliance-of.ts) says the same in TypeScript, for the daily aggregates;
// test/projections/read-models.test.ts holds the two equal.
// One row per delivered resource: a gate's lines (rm_purchases.resources) each under their own origin
// and classification, a single report its own row. `line_amount_micro` shares the one payment among
// the lines (the remainder on line 1), so sums over lines are sums of payments.
const CREATE_COMPLIANCE_VIEW: InDialects = {
  postgres: `CREATE VIEW ${COMPLIANCE_VIEW} AS
     SELECT p.purchase_id, coalesce(x.ord, 1)::integer AS line,
       CASE WHEN jsonb_typeof(p.resources) = 'array' THEN jsonb_array_length(p.resources) ELSE 1 END AS lines,
       p.sku, coalesce(x.r->>'resource', p.resource) AS resource,
       CASE WHEN x.r IS NULL THEN p.origin ELSE x.r->>'origin' END AS origin,
       p.purpose, p.user_class, p.geo,
       coalesce(x.r->>'classification', p.classification) AS classification,
       CASE WHEN x.r IS NULL THEN p.decision ELSE coalesce(x.r->>'decision', p.decision) END AS decision,
       p.changed AS changed_lines,
       CASE WHEN x.r IS NULL THEN p.observed_at ELSE x.r->>'observed_at' END AS observed_at,
       CASE WHEN x.r IS NULL THEN p.rsl_document_sha256 ELSE x.r->'rsl_documents' END AS rsl_document_sha256,
       p.evidence_key_id, p.report_sha256, p.evidence_sha256,
       p.delivery_proof_sha256, p.payer, p.settled_amount_micro AS amount_micro,
       CASE WHEN p.settled_amount_micro IS NULL THEN NULL
         WHEN x.r IS NULL THEN p.settled_amount_micro
         ELSE (div(p.settled_amount_micro::numeric, jsonb_array_length(p.resources))
           + CASE WHEN x.ord = 1 THEN mod(p.settled_amount_micro::numeric, jsonb_array_length(p.resources))
             ELSE 0 END)::text END AS line_amount_micro,
       p.network, p."transaction",
       p.delivered_at, ${DELIVERED_DAY.postgres} AS delivered_day, p.status = 'held' AS held,
       CASE WHEN p.status = 'held' THEN p.lock_reason END AS held_reason,
       coalesce(r.status, 'none') AS refund_status,
       p.signals_summary AS signals_summary_lines,
       p.signals AS signals_lines
     FROM rm_purchases p LEFT JOIN rm_refunds r ON r.purchase_id = p.purchase_id
       LEFT JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.resources) = 'array' THEN p.resources END)
         WITH ORDINALITY AS x(r, ord) ON true
     WHERE p.delivered_at IS NOT NULL AND p.report_sha256 IS NOT NULL AND p.evidence_sha256 IS NOT NULL
       AND p.delivery_proof_sha256 IS NOT NULL`,
  // The same view over SQLite's JSON1: json_each for the LATERAL jsonb_array_elements (its 0-based key is the
  // line less one), integer division and % for div and mod (micro-USDC fits SQLite's 64-bit integers).
  sqlite: `CREATE VIEW ${COMPLIANCE_VIEW} AS
     SELECT p.purchase_id, coalesce(x.key + 1, 1) AS line,
       CASE WHEN json_type(p.resources) = 'array' THEN json_array_length(p.resources) ELSE 1 END AS lines,
       p.sku, coalesce(x.value ->> 'resource', p.resource) AS resource,
       CASE WHEN x.value IS NULL THEN p.origin ELSE x.value ->> 'origin' END AS origin,
       p.purpose, p.user_class, p.geo,
       coalesce(x.value ->> 'classification', p.classification) AS classification,
       CASE WHEN x.value IS NULL THEN p.decision ELSE coalesce(x.value ->> 'decision', p.decision) END AS decision,
       p.changed AS changed_lines,
       CASE WHEN x.value IS NULL THEN p.observed_at ELSE x.value ->> 'observed_at' END AS observed_at,
       CASE WHEN x.value IS NULL THEN p.rsl_document_sha256 ELSE x.value -> 'rsl_documents' END AS rsl_document_sha256,
       p.evidence_key_id, p.report_sha256, p.evidence_sha256,
       p.delivery_proof_sha256, p.payer, p.settled_amount_micro AS amount_micro,
       CASE WHEN p.settled_amount_micro IS NULL THEN NULL
         WHEN x.value IS NULL THEN p.settled_amount_micro
         ELSE CAST(CAST(p.settled_amount_micro AS INTEGER) / json_array_length(p.resources)
           + CASE WHEN x.key = 0 THEN CAST(p.settled_amount_micro AS INTEGER) % json_array_length(p.resources)
             ELSE 0 END AS TEXT) END AS line_amount_micro,
       p.network, p."transaction",
       p.delivered_at, ${DELIVERED_DAY.sqlite} AS delivered_day, p.status = 'held' AS held,
       CASE WHEN p.status = 'held' THEN p.lock_reason END AS held_reason,
       coalesce(r.status, 'none') AS refund_status,
       p.signals_summary AS signals_summary_lines,
       p.signals AS signals_lines
     FROM rm_purchases p LEFT JOIN rm_refunds r ON r.purchase_id = p.purchase_id
       LEFT JOIN json_each(CASE WHEN json_type(p.resources) = 'array' THEN p.resources END) AS x ON true
     WHERE p.delivered_at IS NOT NULL AND p.report_sha256 IS NOT NULL AND p.evidence_sha256 IS NOT NULL
       AND p.delivery_proof_sha256 IS NOT NULL`,
};

/** The view's columns and the types its rows travel as JSON (queries/compliance.ts). */
export const COMPLIANCE_COLUMNS: readonly (readonly [string, string])[] = [
  ['purchase_id', 'text'],
  ['line', 'integer'],
  ['lines', 'integer'],
  ['sku', 'text'],
  ['resource', 'text'],
  ['origin', 'text'],
  ['purpose', 'text'],
  ['user_class', 'text'],
  ['geo', 'text'],
  ['classification', 'text'],
  ['decision', 'text'],
  ['changed_lines', 'jsonb'],
  ['observed_at', 'text'],
  ['rsl_document_sha256', 'jsonb'],
  ['evidence_key_id', 'text'],
  ['report_sha256', 'text'],
  ['evidence_sha256', 'text'],
  ['delivery_proof_sha256', 'text'],
  ['payer', 'text'],
  ['amount_micro', 'text'],
  ['line_amount_micro', 'text'],
  ['network', 'text'],
  ['transaction', 'text'],
  ['delivered_at', 'text'],
  ['delivered_day', 'text'],
  ['held', 'boolean'],
  ['held_reason', 'text'],
  ['refund_status', 'text'],
  ['signals_summary_lines', 'jsonb'],
  ['signals_lines', 'jsonb'],
];

// Secondary indexes: created with the tables, except during a full rebuild, which builds them once
// at the end (cheaper than maintaining them row by row while every row is written).
const CREATE_INDEXES: readonly (string | { postgres: string; sqlite: string | undefined })[] = [
  // Recovery candidates are an index scan, however many purchases were ever quoted.
  `CREATE INDEX rm_purchases_recovery ON rm_purchases (updated_position)
     WHERE status IN ('checkpointed', 'settlement_submitted', 'settled')`,
  `CREATE INDEX rm_purchases_status ON rm_purchases (status, quoted_at)`,
  `CREATE INDEX rm_purchases_quoted ON rm_purchases (quoted_at, purchase_id)`,
  // SQLite's LIKE 'prefix%' reads the primary key's own index (case_sensitive_like: src/store/sqlite/open-sqlite.ts).
  { postgres: `CREATE INDEX rm_purchases_prefix ON rm_purchases (purchase_id text_pattern_ops)`, sqlite: undefined },
  `CREATE INDEX rm_refunds_status ON rm_refunds (status, requested_at)`,
  // Exports page through one range of days in (delivered_day, purchase_id) order.
  {
    postgres: `CREATE INDEX rm_purchases_delivered ON rm_purchases (${DELIVERED_DAY.postgres}, purchase_id)
     WHERE delivered_at IS NOT NULL`,
    sqlite: `CREATE INDEX rm_purchases_delivered ON rm_purchases (${DELIVERED_DAY.sqlite}, purchase_id)
     WHERE delivered_at IS NOT NULL`,
  },
];

export interface Checkpoint {
  version: number;
  position: bigint;
}

const CREATE_CHECKPOINT: InDialects = {
  postgres: `CREATE TABLE IF NOT EXISTS rm_checkpoint (
         name text PRIMARY KEY, version integer NOT NULL, position bigint NOT NULL,
         updated timestamptz NOT NULL DEFAULT now())`,
  sqlite: `CREATE TABLE IF NOT EXISTS rm_checkpoint (
         name text PRIMARY KEY, version integer NOT NULL, position bigint NOT NULL,
         updated text NOT NULL DEFAULT (now()))`,
};

/**
 * Makes sure the read-model tables exist at READ_MODEL_VERSION. Several processes may start at once
 * against one PostgreSQL: a transaction-scoped advisory lock makes them take turns (SQLite needs none: one
 * process per directory). Returns whether the tables were (re)created empty, i.e. a rebuild from the first
 * event is due.
 */
export async function ensureReadModels(db: SqlDriver): Promise<{ created: boolean }> {
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres')
      await tx.query(
        `SELECT pg_advisory_xact_lock(hashtext('rights-preflight.read-models'),
        hashtext(coalesce(current_schema(), '')))`,
      );
    await tx.query(inDialect(tx, CREATE_CHECKPOINT));
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
  await dropCompliance(tx);
  for (const table of TABLES) await tx.query(`DROP TABLE IF EXISTS ${table}`);
  for (const ddl of CREATE_TABLES) await tx.query(ddl);
  await tx.query(inDialect(tx, CREATE_COMPLIANCE_VIEW));
  if (opts.indexes) await createIndexes(tx);
  await tx.query(
    `INSERT INTO rm_checkpoint (name, version, position) VALUES ($1, $2, 0)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, position = 0, updated = now()`,
    [CHECKPOINT, READ_MODEL_VERSION],
  );
}

/** Drops the compliance view, or the table it was up to READ_MODEL_VERSION 1. */
const COMPLIANCE_KIND: InDialects = {
  postgres: `SELECT c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relname = $1 AND n.nspname = current_schema()`,
  sqlite: `SELECT CASE type WHEN 'view' THEN 'v' ELSE 'r' END AS relkind FROM sqlite_master WHERE name = $1`,
};

async function dropCompliance(tx: SqlQueryable): Promise<void> {
  const [r] = await tx.query<{ relkind: string }>(inDialect(tx, COMPLIANCE_KIND), [COMPLIANCE_VIEW]);
  if (r) await tx.query(`DROP ${r.relkind === 'v' ? 'VIEW' : 'TABLE'} ${COMPLIANCE_VIEW}`);
}

export async function createIndexes(tx: SqlQueryable): Promise<void> {
  for (const index of CREATE_INDEXES) {
    const ddl = typeof index === 'string' ? index : index[tx.dialect];
    if (ddl !== undefined) await tx.query(ddl.replace('CREATE INDEX', 'CREATE INDEX IF NOT EXISTS'));
  }
}

export async function readCheckpoint(db: SqlQueryable): Promise<Checkpoint> {
  const [row] = await db.query<{ version: number; position: string }>(
    `SELECT version, position::text AS position FROM rm_checkpoint WHERE name = $1`,
    [CHECKPOINT],
  );
  if (!row) throw new Error('read models are not set up (ensureReadModels was not run)');
  return { version: Number(row.version), position: BigInt(row.position) };
}
