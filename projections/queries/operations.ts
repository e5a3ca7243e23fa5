import type { SqlQueryable } from '../../src/store/sql-driver.js';

// Counts an operator watches (the service's /metrics): each one query on an indexed column.

export async function purchaseCountsByStatus(db: SqlQueryable): Promise<{ status: string; count: number }[]> {
  const rows = await db.query<{ status: string; n: string }>(
    `SELECT status, count(*)::text AS n FROM rm_purchases GROUP BY status ORDER BY status`,
  );
  return rows.map((r) => ({ status: r.status, count: Number(r.n) }));
}

export async function queueSize(db: SqlQueryable): Promise<number> {
  const [r] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM rm_queue`);
  return Number(r?.n ?? 0);
}

/** Refund requests an operator has not reviewed yet. */
export async function refundBacklog(db: SqlQueryable): Promise<number> {
  const [r] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM rm_refunds WHERE status = 'requested'`);
  return Number(r?.n ?? 0);
}
