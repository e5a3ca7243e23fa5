import { COMPLIANCE_EXPORT_COLUMNS, type ComplianceExportRow } from './compliance-row.js';
import { COVERAGE_DAY_COLUMNS, type CoverageDayRow } from './coverage-day-row.js';

// The compliance export: the read model's rows written as CSV or JSONL, in COMPLIANCE_COLUMNS order.
// Rows are written one at a time and the writer waits for 'drain' whenever the stream asks it to, so
// an export of any size holds one row in memory (the rows themselves come from a paged async source,
// e.g. `complianceRows()` in projections/queries/compliance.ts).
//
//   const n = await writeComplianceExport(complianceRows(db, { from, to }), 'csv', createWriteStream(file));
//
// The stream is not ended: the caller owns it (it may be process.stdout).
//
// CSV (RFC 4180):
// - lines end with CRLF, as RFC 4180 §2.1 says, and that is what spreadsheet programs expect. The
//   same CRLF separates the header from the rows and ends the last row.
// - a field is quoted when it contains `,` `"` CR or LF; quotes inside are doubled (§2.6, §2.7).
// - null is an empty field, booleans are `true`/`false`, an array (rsl_document_sha256) is its
//   items joined by one space (sha256 hex never contains a space).
// - formula injection: a spreadsheet opening the file runs any cell starting with `=` `+` `-` `@`
//   (tab and CR too, which some of them skip before looking for a formula) as a formula, and
//   origins, purposes and hold reasons are text that publishers and operators chose. Such a text
//   field is prefixed with `'`, which spreadsheets treat as "this cell is text" (OWASP's advice). The
//   CSV is therefore for people; JSONL is the exact, machine-readable form.
//
// JSONL: one `JSON.stringify` of the row per line (LF), keys in COMPLIANCE_COLUMNS order and only
// those keys (a source row carrying extra columns, such as the table's delivered_day, exports clean).
//
// The coverage records (coverage-day-row.ts) are written the same way, in COVERAGE_DAY_COLUMNS order; in
// CSV a record's changes are one field, one change a line ("<at> <type> by <operator>: <reason>"), which
// RFC 4180 allows inside quotes (§2.6) and spreadsheets show as one cell.

export type ComplianceExportFormat = 'csv' | 'jsonl';

const CSV_EOL = '\r\n';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: the value's text, formula-guarded, then quoted if RFC 4180 requires it. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = Array.isArray(value) ? value.map(String).join(' ') : String(value);
  const guarded = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export const csvHeader = (): string => COMPLIANCE_EXPORT_COLUMNS.map(csvField).join(',') + CSV_EOL;

export const csvLine = (row: ComplianceExportRow): string =>
  COMPLIANCE_EXPORT_COLUMNS.map((c) => csvField(row[c])).join(',') + CSV_EOL;

export const jsonlLine = (row: ComplianceExportRow): string =>
  JSON.stringify(Object.fromEntries(COMPLIANCE_EXPORT_COLUMNS.map((c) => [c, row[c]]))) + '\n';

/**
 * Writes every row of `rows` to `out` in `format` and resolves with the number of rows written
 * (the CSV header is not counted). Rejects if the stream errors, or closes while rows remain.
 */
export async function writeComplianceExport(
  rows: AsyncIterable<ComplianceExportRow>,
  format: ComplianceExportFormat,
  out: NodeJS.WritableStream,
): Promise<number> {
  return writeTable(rows, format === 'csv' ? csvHeader() : undefined, lineWriter(format), out);
}

const coverageCsvHeader = (): string => COVERAGE_DAY_COLUMNS.map(csvField).join(',') + CSV_EOL;

const coverageCsvLine = (row: CoverageDayRow): string =>
  COVERAGE_DAY_COLUMNS.map((c) =>
    c === 'changes'
      ? csvField(row.changes.map((ch) => `${ch.at} ${ch.type} by ${ch.operator}: ${ch.reason}`).join('\n'))
      : csvField(row[c]),
  ).join(',') + CSV_EOL;

const coverageJsonlLine = (row: CoverageDayRow): string =>
  JSON.stringify(Object.fromEntries(COVERAGE_DAY_COLUMNS.map((c) => [c, row[c]]))) + '\n';

/** Writes the coverage records (coverage-day-row.ts) as writeComplianceExport writes rows. */
export async function writeCoverageExport(
  rows: Iterable<CoverageDayRow> | AsyncIterable<CoverageDayRow>,
  format: ComplianceExportFormat,
  out: NodeJS.WritableStream,
): Promise<number> {
  if (format !== 'csv' && format !== 'jsonl') throw new RangeError(`unknown export format: ${String(format)}`);
  return writeTable(
    rows,
    format === 'csv' ? coverageCsvHeader() : undefined,
    format === 'csv' ? coverageCsvLine : coverageJsonlLine,
    out,
  );
}

async function writeTable<R>(
  rows: Iterable<R> | AsyncIterable<R>,
  header: string | undefined,
  line: (row: R) => string,
  out: NodeJS.WritableStream,
): Promise<number> {
  const sink = backpressured(out);
  try {
    if (header !== undefined) await sink.write(header);
    let count = 0;
    for await (const row of rows) {
      await sink.write(line(row));
      count++;
    }
    sink.check();
    return count;
  } finally {
    sink.release();
  }
}

function lineWriter(format: ComplianceExportFormat): (row: ComplianceExportRow) => string {
  switch (format) {
    case 'csv':
      return csvLine;
    case 'jsonl':
      return jsonlLine;
    default: {
      // Formats come from a command line too: refuse anything else rather than write a wrong file.
      const never: never = format;
      throw new RangeError(`unknown export format: ${String(never)}`);
    }
  }
}

// The stream is watched for the whole export, not only while waiting: an error emitted between two
// writes must fail the export (and must not crash the process as an unhandled 'error'). A close
// counts as a failure while waiting, since 'drain' would then never come.
function backpressured(out: NodeJS.WritableStream) {
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const onError = (err: Error) => {
    failure ??= err;
    wake?.();
  };
  const onClose = () => {
    failure ??= new Error('the output stream closed before the export was written');
    wake?.();
  };
  const onDrain = () => wake?.();
  out.on('error', onError);
  out.on('close', onClose);
  out.on('drain', onDrain);
  const check = () => {
    if (failure) throw failure;
  };
  return {
    check,
    async write(chunk: string): Promise<void> {
      check();
      if (out.write(chunk)) return;
      if (!failure)
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      wake = undefined;
      check();
    },
    release() {
      out.removeListener('error', onError);
      out.removeListener('close', onClose);
      out.removeListener('drain', onDrain);
    },
  };
}
