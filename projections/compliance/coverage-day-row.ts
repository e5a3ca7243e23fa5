import * as t from 'io-ts';
import type { CoveredDay } from '../../streams/coverage/covered-days.js';

// The compliance export's coverage records (`ops compliance export --of coverage`, GET
// /operator/v1/compliance/export?of=coverage): what the coverage ledger covered on each UTC day of the
// range, one record per day and origin covered at some moment of that day, with the ledger's changes of
// that origin on that day (who, when, why). The delivered-report rows stay as they were; these records
// are a table of their own, so a consumer of the rows reads the same columns as before
// (docs/decisions.md, "The compliance export says what was covered").

const Change = t.type({ at: t.string, type: t.string, operator: t.string, reason: t.string });

export const CoverageDayRow = t.type(
  {
    day: t.string, // YYYY-MM-DD (UTC)
    origin: t.string,
    /** Covered when the day began (00:00 UTC). */
    covered_at_start: t.boolean,
    /** Covered when the day ended, or now for a day not over yet. */
    covered_at_end: t.boolean,
    /** The ledger's changes of this origin during the day, in order (CSV: one per line of the field). */
    changes: t.array(Change),
  },
  'CoverageDayRow',
);
export type CoverageDayRow = t.TypeOf<typeof CoverageDayRow>;

/** Column order of the coverage records (CSV columns, JSONL keys). */
export const COVERAGE_DAY_COLUMNS = Object.keys(CoverageDayRow.props) as (keyof CoverageDayRow)[];

/**
 * The records of `days` (covered-days.ts): an origin was covered at the start of a day unless its first
 * change that day added it (an add needs an uncovered origin; a seed writes an empty ledger), and at the
 * end unless its last change withdrew it.
 */
export function coverageDayRows(days: readonly CoveredDay[]): CoverageDayRow[] {
  return days.flatMap((d) =>
    d.origins.map((origin) => {
      const changes = d.changes
        .filter((c) => c.origin === origin)
        .map(({ at, type, operator, reason }) => ({ at, type, operator, reason }));
      const first = changes[0]?.type;
      const last = changes.at(-1)?.type;
      return {
        day: d.day,
        origin,
        covered_at_start: first === undefined || first === 'OriginWithdrawn',
        covered_at_end: last !== 'OriginWithdrawn',
        changes,
      };
    }),
  );
}
