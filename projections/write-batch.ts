import type { SqlDriver, SqlQueryable } from '../src/store/sql/sql-driver.js';
import { rowsToLoad, type BatchChanges, type BatchRows } from './batch.js';
import type { FactEvent } from './feed/fact-event.js';
import type { RefundRow } from './refunds/refund-row.js';
import type { ReportRow } from './report-view/report-row.js';
import { CHECKPOINT } from './schema.js';

// Applies one page of events to the read-model tables: load the rows the page touches, apply it
// (pure, batch.ts), write the row changes with one statement per table, and move the checkpoint from
// `from` to the page's last position — all in one transaction. The checkpoint moves only if it is
// still at `from`, so a page is applied exactly once even if two processes ever both think they lead.

export class CheckpointMoved extends Error {
  readonly code = 'CHECKPOINT_MOVED';
}

/**
 * Writes a page's changes, computed beforehand, and moves the checkpoint in one transaction. The rows
 * were loaded outside it (catch-up.ts overlaps that with the previous page's write); the
 * compare-and-set on the checkpoint still makes the page apply exactly once, because any other writer
 * of these tables moves (or resets) the checkpoint.
 */
export async function writePage(db: SqlDriver, from: bigint, to: bigint, changes: BatchChanges): Promise<void> {
  await db.transaction(async (tx) => {
    await writeChanges(tx, changes);
    await moveCheckpoint(tx, from, to);
  });
}

/**
 * The rows a page touches: from `carry` (the previous page's changed rows, possibly not committed
 * yet) where it has them, from the tables otherwise.
 */
export async function loadBatchRows(
  q: SqlQueryable,
  events: readonly FactEvent[],
  carry?: BatchRows,
): Promise<BatchRows> {
  const need = rowsToLoad(events);
  const fromTables = (ids: string[], carried: ReadonlyMap<string, unknown> | undefined) =>
    carried ? ids.filter((id) => !carried.has(id)) : ids;
  const reports = await loadRows<ReportRow>(q, 'rm_purchases', fromTables(need.reports, carry?.reports));
  const refunds = await loadRows<RefundRow>(q, 'rm_refunds', fromTables(need.refunds, carry?.refunds));
  if (carry) {
    for (const id of need.reports) {
      const row = carry.reports.get(id);
      if (row) reports.set(id, row);
    }
    for (const id of need.refunds) {
      const row = carry.refunds.get(id);
      if (row) refunds.set(id, row);
    }
  }
  return { reports, refunds };
}

/** The rows a page changed, as the next page must see them before they are committed. */
export function changedRows(changes: BatchChanges): BatchRows {
  return {
    reports: new Map(changes.reports.map((r) => [r.purchase_id, r])),
    refunds: new Map(changes.refunds.map((r) => [r.purchase_id, r])),
  };
}

async function moveCheckpoint(tx: SqlQueryable, from: bigint, to: bigint): Promise<void> {
  // Losing the last read-model commit in a crash loses its rows and its checkpoint together, so the
  // page is simply applied again: the read models need no flush to disk on every commit.
  await tx.query(`SET LOCAL synchronous_commit = off`);
  const moved = await tx.query(
    `UPDATE rm_checkpoint SET position = $3::bigint, updated = now() WHERE name = $1 AND position = $2::bigint
      RETURNING position`,
    [CHECKPOINT, from.toString(), to.toString()],
  );
  if (moved.length !== 1) throw new CheckpointMoved(`read-model checkpoint is no longer at ${from}`);
}

async function loadRows<Row extends { purchase_id: string; updated_position: string }>(
  q: SqlQueryable,
  table: string,
  ids: string[],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  if (ids.length === 0) return rows;
  const [r] = await q.query<{ page: string | null }>(
    `SELECT json_agg(t)::text AS page FROM ${table} t WHERE purchase_id = ANY($1::text[])`,
    [ids],
  );
  for (const row of JSON.parse(r?.page ?? '[]') as Row[])
    rows.set(row.purchase_id, { ...row, updated_position: String(row.updated_position) });
  return rows;
}

const REPORT_COLUMNS: readonly (keyof ReportRow)[] = [
  'purchase_id',
  'status',
  'submissions',
  'locked_from',
  'sku',
  'resource',
  'origin',
  'purpose',
  'user_class',
  'tier',
  'geo',
  'classification',
  'decision',
  'observed_at',
  'rsl_document_sha256',
  'resources',
  'price_micro',
  'expires_at',
  'quoted_at',
  'payer',
  'settled_amount_micro',
  'network',
  'transaction',
  'evidence_key_id',
  'report_sha256',
  'evidence_sha256',
  'delivery_proof_sha256',
  'delivered_at',
  'changed',
  'signals_summary',
  'signals',
  'lock_reason',
  'updated_position',
];
const REFUND_COLUMNS: readonly (keyof RefundRow)[] = [
  'purchase_id',
  'status',
  'reason',
  'amount_micro',
  'requested_at',
  'reviewed_at',
  'paid_transaction',
  'updated_position',
];
const QUEUE_COLUMNS = ['purchase_id', 'kind', 'reason', 'details', 'locked_from', 'since_position', 'since'];
/** One multi-row upsert: the rows travel as one JSON array and become records in the database. */
async function upsert(
  tx: SqlQueryable,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const cols = columns.join(', ');
  const updates = columns.filter((c) => c !== 'purchase_id');
  const excluded = updates.map((c) => `EXCLUDED.${c}`);
  await tx.query(
    `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(null::${table}, $1::jsonb)
     ON CONFLICT (purchase_id) DO UPDATE SET (${updates.join(', ')}) = ROW(${excluded.join(', ')})`,
    [JSON.stringify(rows)],
  );
}

async function writeChanges(tx: SqlQueryable, c: BatchChanges): Promise<void> {
  await upsert(tx, 'rm_purchases', REPORT_COLUMNS, c.reports);
  await upsert(tx, 'rm_refunds', REFUND_COLUMNS, c.refunds);
  if (c.queueRemove.length > 0)
    await tx.query(`DELETE FROM rm_queue WHERE purchase_id = ANY($1::text[])`, [c.queueRemove]);
  await upsert(tx, 'rm_queue', QUEUE_COLUMNS, c.queuePut);
  if (c.daily.length > 0) {
    await tx.query(
      `INSERT INTO rm_compliance_daily AS d
         (day, origin, purpose, classification, sku, reports, amount_micro, held, refunded, changed,
          restricted_by_other_signal)
       SELECT day, origin, purpose, classification, sku, reports, amount_micro, held, refunded, changed,
         restricted_by_other_signal
       FROM jsonb_to_recordset($1::jsonb) AS x(day text, origin text, purpose text, classification text,
         sku text, reports bigint, amount_micro numeric, held bigint, refunded bigint, changed bigint,
         restricted_by_other_signal bigint)
       ON CONFLICT (day, origin, purpose, classification, sku) DO UPDATE SET
         reports = d.reports + EXCLUDED.reports, amount_micro = d.amount_micro + EXCLUDED.amount_micro,
         held = d.held + EXCLUDED.held, refunded = d.refunded + EXCLUDED.refunded,
         changed = d.changed + EXCLUDED.changed,
         restricted_by_other_signal = d.restricted_by_other_signal + EXCLUDED.restricted_by_other_signal`,
      [
        JSON.stringify(
          c.daily.map(({ key: _key, amount_micro, ...d }) => ({ ...d, amount_micro: amount_micro.toString() })),
        ),
      ],
    );
  }
}
