import type { SqlQueryable } from '../../src/store/sql-driver.js';
import { rowsJson } from '../columns.js';
import type { ComplianceDaily, ComplianceRow, DayRange } from '../compliance/compliance-row.js';
import { COMPLIANCE_COLUMNS } from '../schema.js';

// Reads of the compliance read model. Rows stream in keyset-paged order (delivered_day, purchase_id, line),
// one page in memory at a time, so an export of any size runs in constant memory.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function rangeWhere(range: DayRange, column: string, params: unknown[]): string[] {
  const where: string[] = [];
  if (range.from !== undefined) {
    if (!DAY.test(range.from)) throw new RangeError('from must be YYYY-MM-DD');
    params.push(range.from);
    where.push(`${column} >= $${params.length}`);
  }
  if (range.to !== undefined) {
    if (!DAY.test(range.to)) throw new RangeError('to must be YYYY-MM-DD');
    params.push(range.to);
    where.push(`${column} <= $${params.length}`);
  }
  return where;
}

/** A page as the view gives it: the purchase's per-line arrays, from which each row takes its line's value. */
type PerLinePage = (Omit<ComplianceRow, 'changed' | 'signals_summary' | 'signals'> & {
  delivered_day: string;
  changed_lines: (boolean | null)[] | null;
  signals_summary_lines: (string | null)[] | null;
  signals_lines: (string[] | null)[] | null;
})[];

export async function* complianceRows(
  db: SqlQueryable,
  range: DayRange = {},
  pageSize = 2000,
): AsyncGenerator<ComplianceRow> {
  let after: [string, string, number] | undefined;
  for (;;) {
    const params: unknown[] = [];
    const where = rangeWhere(range, 'delivered_day', params);
    if (after) {
      params.push(after[0], after[1], after[2]);
      const [day, id, line] = [`$${params.length - 2}`, `$${params.length - 1}`, `$${params.length}`];
      // The first term is the purchases' index range; the second skips the lines already sent.
      where.push(`(delivered_day, purchase_id) >= (${day}, ${id})`);
      where.push(`((delivered_day, purchase_id) > (${day}, ${id}) OR line > ${line})`);
    }
    params.push(pageSize);
    const [r] = await db.query<{ page: string | null }>(
      `SELECT ${rowsJson(db, 'c', COMPLIANCE_COLUMNS, 'c.delivered_day, c.purchase_id, c.line')} AS page FROM (
         SELECT * FROM rm_compliance ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY delivered_day, purchase_id, line LIMIT $${params.length}) c`,
      params,
    );
    const page = JSON.parse(r?.page ?? '[]') as PerLinePage;
    // A line's `changed` and signals are picked here, not in the view: a jsonb lookup there was evaluated for
    // every row the page's sort read (schema.ts), which doubled a 100k-row export's time and tripled its
    // memory growth (docs/decisions.md, "The suite's wall time").
    for (const { delivered_day: _day, changed_lines, signals_summary_lines, signals_lines, ...rest } of page) {
      const row = rest as ComplianceRow; // in place: a second object per row doubles an export's garbage
      const i = row.line - 1;
      row.changed = changed_lines?.[i] ?? null;
      row.signals_summary = signals_summary_lines?.[i] ?? null;
      row.signals = signals_lines?.[i] ?? null;
      yield row;
    }
    if (page.length < pageSize) return;
    const last = page.at(-1)!;
    after = [last.delivered_day, last.purchase_id, last.line];
  }
}

export async function complianceDaily(db: SqlQueryable, range: DayRange = {}): Promise<ComplianceDaily[]> {
  const params: unknown[] = [];
  const where = [...rangeWhere(range, 'day', params), 'reports > 0'];
  const rows = await db.query<{
    day: string;
    origin: string;
    purpose: string;
    classification: string;
    sku: string;
    reports: string;
    amount_micro: string;
    held: string;
    refunded: string;
    changed: string;
    restricted_by_other_signal: string;
  }>(
    `SELECT day, origin, purpose, classification, sku, reports::text AS reports, amount_micro::text AS amount_micro,
      held::text AS held, refunded::text AS refunded, changed::text AS changed,
      restricted_by_other_signal::text AS restricted_by_other_signal
     FROM rm_compliance_daily WHERE ${where.join(' AND ')} ORDER BY day, origin, purpose, classification, sku`,
    params,
  );
  return rows.map((r) => ({
    ...r,
    reports: Number(r.reports),
    held: Number(r.held),
    refunded: Number(r.refunded),
    changed: Number(r.changed),
    restricted_by_other_signal: Number(r.restricted_by_other_signal),
  }));
}

/** The networks and evidence keys of the deliveries in a range (what a compliance report covers). */
export async function complianceKeys(
  db: SqlQueryable,
  range: DayRange = {},
): Promise<{ networks: string[]; evidenceKeyIds: string[] }> {
  const params: unknown[] = [];
  const where = rangeWhere(range, 'delivered_day', params);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const rows = await db.query<{ network: string | null; evidence_key_id: string | null }>(
    `SELECT DISTINCT network, evidence_key_id FROM rm_compliance ${filter} ORDER BY network, evidence_key_id`,
    params,
  );
  const present = (xs: (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))].sort();
  return { networks: present(rows.map((r) => r.network)), evidenceKeyIds: present(rows.map((r) => r.evidence_key_id)) };
}
