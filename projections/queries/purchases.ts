import type { SqlQueryable } from '../../src/store/sql-driver.js';
import { QUEUE_COLUMNS, REPORT_COLUMNS, rowsJson } from '../columns.js';
import type { QueueItem } from '../investigation-queue/queue-item.js';
import type { ReportRow } from '../report-view/report-row.js';

// Reads of the report view and the investigation queue, each one indexed query.

const rowsOf = <T>(page: string | null | undefined): T[] => JSON.parse(page ?? '[]') as T[];
const withPosition = <T extends { updated_position: unknown }>(r: T): T => ({
  ...r,
  updated_position: String(r.updated_position),
});

export async function reportRow(db: SqlQueryable, purchaseId: string): Promise<ReportRow | undefined> {
  const [r] = await db.query<{ page: string | null }>(
    `SELECT ${rowsJson(db, 'p', REPORT_COLUMNS)} AS page FROM rm_purchases p WHERE purchase_id = $1`,
    [purchaseId],
  );
  return rowsOf<ReportRow>(r?.page).map(withPosition)[0];
}

export interface PurchaseFilter {
  status?: string;
  sku?: string;
  since?: string;
  /** Quoted before this ISO instant (exclusive): with `since`, one day of the console's list. */
  until?: string;
  origin?: string;
  limit?: number;
  after?: string;
  /** The console's search: a purchase id prefix (hex), a payer or a settlement transaction (any case). */
  idPrefix?: string;
  payer?: string;
  transaction?: string;
}

/** The WHERE clause of a filter (paging and limit aside), its parameters numbered from $1. */
function whereOf(f: PurchaseFilter, params: unknown[]): string {
  const where: string[] = [];
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.status) where.push(`status = ${param(f.status)}`);
  if (f.sku) where.push(`sku = ${param(f.sku)}`);
  if (f.since) where.push(`quoted_at >= ${param(f.since)}`);
  if (f.until) where.push(`quoted_at < ${param(f.until)}`);
  if (f.origin) where.push(`origin = ${param(f.origin)}`);
  if (f.idPrefix && /^[0-9a-f]{1,64}$/.test(f.idPrefix)) where.push(`purchase_id LIKE ${param(`${f.idPrefix}%`)}`);
  if (f.payer) where.push(`lower(payer) = ${param(f.payer.toLowerCase())}`);
  if (f.transaction) where.push(`lower("transaction") = ${param(f.transaction.toLowerCase())}`);
  if (f.after)
    where.push(
      `(quoted_at, purchase_id) <
       (SELECT quoted_at, purchase_id FROM rm_purchases WHERE purchase_id = ${param(f.after)})`,
    );
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** Purchases newest first (by quote time), filtered; `after` pages on from a purchase id of the previous page. */
export async function listPurchases(db: SqlQueryable, f: PurchaseFilter = {}): Promise<ReportRow[]> {
  const params: unknown[] = [];
  const filter = whereOf(f, params);
  params.push(f.limit ?? 100);
  const sql = `SELECT ${rowsJson(db, 'p', REPORT_COLUMNS)} AS page FROM (SELECT * FROM rm_purchases ${filter}
               ORDER BY quoted_at DESC, purchase_id DESC LIMIT $${params.length}) p`;
  const [r] = await db.query<{ page: string | null }>(sql, params);
  return rowsOf<ReportRow>(r?.page).map(withPosition);
}

export interface PurchaseTotals {
  purchases: number;
  /** Purchases with a settled payment. */
  paid: number;
  /** The sum of the settled amounts, micro-USDC as a decimal string. */
  revenue_micro: string;
}

/** Counts and revenue of every purchase the filter matches (no limit, no paging). */
export async function purchaseTotals(db: SqlQueryable, f: PurchaseFilter = {}): Promise<PurchaseTotals> {
  const params: unknown[] = [];
  const filter = whereOf({ ...f, after: undefined }, params);
  const [r] = await db.query<{ purchases: number; paid: number; revenue_micro: string }>(
    `SELECT count(*)::integer AS purchases, count(settled_amount_micro)::integer AS paid,
            coalesce(sum(settled_amount_micro::numeric), 0)::text AS revenue_micro
       FROM rm_purchases ${filter}`,
    params,
  );
  return {
    purchases: Number(r?.purchases ?? 0),
    paid: Number(r?.paid ?? 0),
    revenue_micro: String(r?.revenue_micro ?? '0'),
  };
}

/** Every purchase id starting with `prefix` (at most `limit`), for git-style unique prefixes. */
export async function purchaseIdsWithPrefix(db: SqlQueryable, prefix: string, limit = 10): Promise<string[]> {
  if (!/^[0-9a-f]{1,64}$/.test(prefix)) return [];
  const rows = await db.query<{ purchase_id: string }>(
    `SELECT purchase_id FROM rm_purchases WHERE purchase_id LIKE $1 ORDER BY purchase_id LIMIT $2`,
    [`${prefix}%`, limit],
  );
  return rows.map((r) => r.purchase_id);
}

export async function queueItems(db: SqlQueryable): Promise<QueueItem[]> {
  const [r] = await db.query<{ page: string | null }>(
    `SELECT ${rowsJson(db, 'q', QUEUE_COLUMNS, 'q.since_position')} AS page FROM rm_queue q`,
  );
  return rowsOf<QueueItem>(r?.page).map((q) => ({ ...q, since_position: String(q.since_position) }));
}
