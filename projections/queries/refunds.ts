import type { SqlQueryable } from '../../src/store/sql-driver.js';
import { REFUND_COLUMNS, rowJson, rowsJson } from '../columns.js';
import type { RefundRow } from '../refunds/refund-row.js';

// Reads of the refund-request view (rm_refunds), each one indexed query.

export type ListedRefund = Omit<RefundRow, 'updated_position'>;

const LISTED = REFUND_COLUMNS.filter(([name]) => name !== 'updated_position');
const COLUMNS = LISTED.map(([name]) => name).join(', ');
/** Requests that wait for an operator: to be reviewed, or approved and not yet paid. */
const OPEN = `status IN ('requested', 'approved')`;

export async function refundRow(db: SqlQueryable, purchaseId: string): Promise<ListedRefund | null> {
  const [r] = await db.query<{ row: string | null }>(
    `SELECT ${rowJson(db, 'r', LISTED)} AS row FROM (SELECT ${COLUMNS} FROM rm_refunds WHERE purchase_id = $1) r`,
    [purchaseId],
  );
  return r?.row ? (JSON.parse(r.row) as ListedRefund) : null;
}

/** Refund requests, oldest request first; only the open ones unless `all`. */
export async function refundRows(db: SqlQueryable, opts: { all: boolean; limit?: number }): Promise<ListedRefund[]> {
  const [r] = await db.query<{ page: string | null }>(
    `SELECT ${rowsJson(db, 'r', LISTED)} AS page
     FROM (SELECT ${COLUMNS} FROM rm_refunds ${opts.all ? '' : `WHERE ${OPEN}`}
     ORDER BY requested_at, purchase_id LIMIT $1) r`,
    [opts.limit ?? 500],
  );
  return JSON.parse(r?.page ?? '[]') as ListedRefund[];
}
