import * as t from 'io-ts';
import type {
  ComplianceDaily,
  ComplianceExportRow,
  ComplianceRow,
  DayRange,
} from '../../projections/compliance/compliance-row.js';
import { REVALIDATE_SKU } from '@rights-preflight/wire/contract/revalidation.js';
import { streamName } from '../../streams/purchase/index.js';
import type { EventStore } from '../store/port.js';
import { complianceDaily, complianceKeys, complianceRows } from '../../projections/queries/compliance.js';
import { isCalendarDay } from './calendar-day.js';
import type { OperatorSession } from './session.js';
import { dayAxis } from '../../projections/compliance/report-html.js';
import { COVERAGE_STREAM, coveredDays, type CoveredDay } from '../../streams/coverage/index.js';
import { coverageDayRows, type CoverageDayRow } from '../../projections/compliance/coverage-day-row.js';
import { UsageError } from './usage-error.js';

// The compliance read model for auditors (`ops compliance`, GET /operator/v1/compliance/…): the rows
// of delivered reports, page by page, and the daily totals with what they cover. Days are UTC days of
// delivery, both ends included.

/** A day written YYYY-MM-DD that is on the calendar. */
export const CalendarDay = t.refinement(t.string, isCalendarDay, 'CalendarDay');
export const DayRangeWire = t.partial({ from: CalendarDay, to: CalendarDay });

// Rows per page read from rm_compliance. Peak RSS of a 100k-row CSV export on the embedded store, over
// an empty export (test/ops/compliance-export-memory.test.ts): 78–99 MB with 2000-row pages (each page
// is one json_agg text, decoded and parsed at once), 10–22 MB with 500. It costs more queries: 12.6 s
// instead of 6.8 s for 100k rows on a table without statistics, 5.2 s instead of 4.8 s after ANALYZE.
export const EXPORT_PAGE_ROWS = 500;

/** The rows delivered in `range`, read page by page while they are consumed, as exported. */
export async function* complianceRowsOf(
  session: OperatorSession,
  range: DayRange,
): AsyncGenerator<ComplianceExportRow> {
  const models = await session.models();
  let chain: { purchaseId: string; reports: readonly string[] } | undefined;
  for await (const row of complianceRows(models.db, range, EXPORT_PAGE_ROWS)) {
    if (row.sku !== REVALIDATE_SKU) {
      // In place, not a copy: an export streams 100k rows and a second object each doubles the garbage.
      const exported = row as ComplianceExportRow;
      exported.previous_report_sha256 = null;
      yield exported;
      continue;
    }
    // A revalidation's lines come one after another: its Quoted event is read once for all of them.
    if (chain?.purchaseId !== row.purchase_id)
      chain = { purchaseId: row.purchase_id, reports: await previousReports(await session.store(), row) };
    yield { ...row, previous_report_sha256: chain.reports[row.line - 1] ?? null };
  }
}

/** What a revalidation's `Quoted` reading says each checkpoint's report was (report_sha256, in line order). */
const RevalidationQuotedPrevious = t.type({
  reading: t.type({ previous: t.array(t.type({ report_sha256: t.string })) }),
});

async function previousReports(store: EventStore, row: ComplianceRow): Promise<string[]> {
  const quoted = (await store.readStream(streamName(row.purchase_id))).find((e) => e.type === 'Quoted');
  return RevalidationQuotedPrevious.is(quoted?.data) ? quoted.data.reading.previous.map((p) => p.report_sha256) : [];
}

/**
 * The daily totals of `range`, the networks and evidence keys its deliveries used, and what the coverage
 * ledger covered on each of its days.
 */
export async function complianceTotals(
  session: OperatorSession,
  range: DayRange,
): Promise<{
  daily: ComplianceDaily[];
  keys: { networks: string[]; evidenceKeyIds: string[] };
  coverage: CoveredDay[];
}> {
  const models = await session.models();
  const daily = await complianceDaily(models.db, range);
  const coverage = await coverageOfDays(session, dayAxis(range, daily));
  return { daily, keys: await complianceKeys(models.db, range), coverage };
}

/** What the coverage ledger covered on each of `days` (ascending YYYY-MM-DD). */
export async function coverageOfDays(session: OperatorSession, days: readonly string[]): Promise<CoveredDay[]> {
  return coveredDays(await (await session.store()).readStream(COVERAGE_STREAM), days);
}

/** The longest range the coverage records are exported for at once: a year (the records are answered whole). */
export const MAX_COVERAGE_EXPORT_DAYS = 366;

/**
 * The compliance export's coverage records for every day of `range`, both ends included
 * (projections/compliance/coverage-day-row.ts): days × origins, so a range is at most a year.
 */
export async function coverageRecords(
  session: OperatorSession,
  range: { from: string; to: string },
): Promise<CoverageDayRow[]> {
  const start = Date.parse(`${range.from}T00:00:00Z`);
  const count = Math.round((Date.parse(`${range.to}T00:00:00Z`) - start) / 86_400_000) + 1;
  if (!(count >= 1 && count <= MAX_COVERAGE_EXPORT_DAYS))
    throw new UsageError(
      `coverage is exported for ${MAX_COVERAGE_EXPORT_DAYS} days at most, from ≤ to ` +
        `(asked ${range.from} … ${range.to})`,
    );
  const days = Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
  return coverageDayRows(await coverageOfDays(session, days));
}
