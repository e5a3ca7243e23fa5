import type { SqlQueryable } from '../../src/store/sql-driver.js';

/** Purchases the recovery worker must look at: paid for (checkpointed) but neither delivered nor parked.
 *  An index scan. */
export async function recoveryCandidates(db: SqlQueryable, limit = 1000): Promise<string[]> {
  const rows = await db.query<{ purchase_id: string }>(
    `SELECT purchase_id FROM rm_purchases WHERE status IN ('checkpointed', 'settlement_submitted', 'settled')
      ORDER BY updated_position LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.purchase_id);
}
