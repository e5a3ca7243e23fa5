import type { SqlQueryable } from '../../src/store/sql-driver.js';

// The operator console's summary: purchases per status and quotes per day, from the report view.

export interface OperatorSummary {
  by_status: { status: string; purchases: number }[];
  /** The last `days` UTC days, oldest first, zero-filled. */
  quotes_per_day: { day: string; quotes: number }[];
  queue: number;
  open_refunds: number;
}

export async function operatorSummary(db: SqlQueryable, now: Date, days = 14): Promise<OperatorSummary> {
  const first = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)),
  ).toISOString();
  const byStatus = await db.query<{ status: string; n: string }>(
    `SELECT status, count(*)::text AS n FROM rm_purchases GROUP BY status ORDER BY status`,
  );
  const perDay = await db.query<{ day: string; n: string }>(
    `SELECT substr(quoted_at, 1, 10) AS day, count(*)::text AS n FROM rm_purchases WHERE quoted_at >= $1 GROUP BY 1`,
    [first],
  );
  const [queue] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM rm_queue`);
  const [refunds] = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM rm_refunds WHERE status IN ('requested', 'approved')`,
  );
  const counted = new Map(perDay.map((r) => [r.day, Number(r.n)]));
  const quotes_per_day = Array.from({ length: days }, (_, i) => {
    const day = new Date(Date.parse(first) + i * 86_400_000).toISOString().slice(0, 10);
    return { day, quotes: counted.get(day) ?? 0 };
  });
  return {
    by_status: byStatus.map((r) => ({ status: r.status, purchases: Number(r.n) })),
    quotes_per_day,
    queue: Number(queue?.n ?? 0),
    open_refunds: Number(refunds?.n ?? 0),
  };
}
