import { inDialect, type InDialects, type SqlDriver, type SqlQueryable } from '../src/store/sql-driver.js';
import { rowsToLoad, type BatchChanges, type BatchRows } from './batch.js';
import { ident, QUEUE_COLUMNS, REFUND_COLUMNS, REPORT_COLUMNS, rowsJson, type Columns } from './columns.js';
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
  const reports = await loadRows<ReportRow>(
    q,
    'rm_purchases',
    REPORT_COLUMNS,
    fromTables(need.reports, carry?.reports),
  );
  const refunds = await loadRows<RefundRow>(q, 'rm_refunds', REFUND_COLUMNS, fromTables(need.refunds, carry?.refunds));
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
  // page is simply applied again: the read models need no flush to disk on every commit (SQLite's WAL at
  // `synchronous = NORMAL` flushes none: src/store/sqlite/open-sqlite.ts).
  if (tx.dialect === 'postgres') await tx.query(`SET LOCAL synchronous_commit = off`);
  const moved = await tx.query(
    `UPDATE rm_checkpoint SET position = $3::bigint, updated = now() WHERE name = $1 AND position = $2::bigint
      RETURNING position`,
    [CHECKPOINT, from.toString(), to.toString()],
  );
  if (moved.length !== 1) throw new CheckpointMoved(`read-model checkpoint is no longer at ${from}`);
}

/** `= ANY($1::text[])` in SQLite: the array is bound as its JSON text (src/store/sqlite/sqlite-driver.ts). */
const AMONG_IDS: InDialects = {
  postgres: 'purchase_id = ANY($1::text[])',
  sqlite: 'purchase_id IN (SELECT value FROM json_each($1))',
};

async function loadRows<Row extends { purchase_id: string; updated_position: string }>(
  q: SqlQueryable,
  table: string,
  columns: Columns<Row>,
  ids: string[],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  if (ids.length === 0) return rows;
  const [r] = await q.query<{ page: string | null }>(
    `SELECT ${rowsJson(q, 't', columns)} AS page FROM ${table} t WHERE ${inDialect(q, AMONG_IDS)}`,
    [ids],
  );
  for (const row of JSON.parse(r?.page ?? '[]') as Row[])
    rows.set(row.purchase_id, { ...row, updated_position: String(row.updated_position) });
  return rows;
}

/**
 * One upsert per table and page. On PostgreSQL (and PGlite) one multi-row statement, its rows as one JSON
 * parameter: on PGlite every byte of a parameter costs (its driver measures and copies the text in
 * JavaScript, the database parses it again: docs/decisions.md, "Rebuilds of quotes"), so each row travels
 * under short keys ("k0", "k1"…, named again by the statement's column list) and without its null columns,
 * which json_to_recordset reads as null: a quoted purchase's row takes ~660 bytes instead of ~1,100. `json`,
 * not `jsonb`: the text is read once, never stored as it is. On SQLite a parameter is a value bound in
 * process, so one prepared single-row statement runs per row inside the page's transaction: a third of
 * json_each's CPU (docs/decisions.md, "Rebuilds of quotes on SQLite"); a jsonb column is bound as its JSON
 * text, as `->` read it from the page's JSON.
 */
interface Upsert {
  /** PostgreSQL: every row of the page from one JSON parameter. */
  postgres: string;
  encode(row: object): Record<string, unknown>;
  /** SQLite: one row, its columns as parameters in the column list's order. */
  sqliteRow: string;
  params(row: object): unknown[];
}

function upsertOf(table: string, columns: readonly (readonly [string, string])[]): Upsert {
  const keys = columns.map((_, i) => `k${i.toString(36)}`);
  const names = columns.map(([name]) => name);
  const json = columns.map(([, type]) => type === 'jsonb');
  const updates = names.filter((c) => c !== 'purchase_id').map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`);
  const into = `INSERT INTO ${table} (${names.map(ident).join(', ')})`;
  const onConflict = `ON CONFLICT (purchase_id) DO UPDATE SET ${updates.join(', ')}`;
  return {
    postgres: `${into}
      SELECT ${keys.join(', ')} FROM json_to_recordset($1::json)
        AS x(${columns.map(([, type], i) => `${keys[i]} ${type}`).join(', ')})
      ${onConflict}`,
    encode(row) {
      const values = row as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) {
        const v = values[names[i]!];
        if (v !== null && v !== undefined) out[keys[i]!] = v;
      }
      return out;
    },
    sqliteRow: `${into} VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) ${onConflict}`,
    params(row) {
      const values = row as Record<string, unknown>;
      const out = new Array<unknown>(names.length);
      for (let i = 0; i < names.length; i++) {
        const v = values[names[i]!];
        out[i] = v === null || v === undefined ? null : json[i] ? JSON.stringify(v) : v;
      }
      return out;
    },
  };
}

const UPSERT_REPORTS = upsertOf('rm_purchases', REPORT_COLUMNS);
const UPSERT_REFUNDS = upsertOf('rm_refunds', REFUND_COLUMNS);
const UPSERT_QUEUE = upsertOf('rm_queue', QUEUE_COLUMNS);

async function upsert(tx: SqlQueryable, u: Upsert, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  if (tx.dialect === 'sqlite') {
    for (const row of rows) await tx.query(u.sqliteRow, u.params(row));
    return;
  }
  await tx.query(u.postgres, [JSON.stringify(rows.map(u.encode))]);
}

/** The daily aggregates' rows from their JSON parameter. */
const DAILY_ROWS: InDialects = {
  postgres: `SELECT day, origin, purpose, classification, sku, reports, amount_micro, held, refunded, changed,
         restricted_by_other_signal
       FROM json_to_recordset($1::json) AS x(day text, origin text, purpose text, classification text,
         sku text, reports bigint, amount_micro numeric, held bigint, refunded bigint, changed bigint,
         restricted_by_other_signal bigint)`,
  // `WHERE true`: without it SQLite would read ON CONFLICT as the join's ON.
  sqlite: `SELECT x.value ->> 'day', x.value ->> 'origin', x.value ->> 'purpose', x.value ->> 'classification',
         x.value ->> 'sku', x.value ->> 'reports', x.value ->> 'amount_micro', x.value ->> 'held',
         x.value ->> 'refunded', x.value ->> 'changed', x.value ->> 'restricted_by_other_signal'
       FROM json_each($1) x WHERE true`,
};

async function writeChanges(tx: SqlQueryable, c: BatchChanges): Promise<void> {
  await upsert(tx, UPSERT_REPORTS, c.reports);
  await upsert(tx, UPSERT_REFUNDS, c.refunds);
  if (c.queueRemove.length > 0)
    await tx.query(`DELETE FROM rm_queue WHERE ${inDialect(tx, AMONG_IDS)}`, [c.queueRemove]);
  await upsert(tx, UPSERT_QUEUE, c.queuePut);
  if (c.daily.length > 0) {
    await tx.query(
      `INSERT INTO rm_compliance_daily AS d
         (day, origin, purpose, classification, sku, reports, amount_micro, held, refunded, changed,
          restricted_by_other_signal)
       ${inDialect(tx, DAILY_ROWS)}
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
