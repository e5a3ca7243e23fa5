import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { DayRange } from '../../projections/compliance/compliance-row.js';
import { writeComplianceExport, writeCoverageExport } from '../../projections/compliance/export-format.js';
import { terminalProgress } from '../progress.js';
import { renderComplianceReport, type ComplianceCoverage } from '../../projections/compliance/report-html.js';
import { privateKeyToAccount } from 'viem/accounts';
import { ROLE_KEYS } from '../../src/devnet/accounts.js';
import { dayFlag, onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';

// `compliance` — the compliance read model for auditors, brought up to date first
// (src/operator/compliance.ts; files are written here, by the CLI, even beside a running service):
//   compliance export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format csv|jsonl [--of coverage] [--out FILE [--json]]
//       one row per delivered report, streamed page by page (constant memory, whatever the range)
//       to FILE or stdout; the row count goes to stderr when writing a file. With --of coverage: what
//       was covered on each day instead, one record per day and origin (a year at most)
//   compliance report --out FILE.html [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]
//       the daily totals as one HTML page
// Days are UTC days of delivery, both ends included. Files are written to a temporary name beside the
// target with mode 0600 (they name payers and transactions), synced, then renamed: a reader never sees
// half a file, and a failed run leaves the previous file as it was.
//
//   npm run ops -- compliance export --from 2026-11-01 --to 2026-11-30 --format csv --out nov.csv

const FORMATS = ['csv', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];
const isFormat = (s: string): s is Format => (FORMATS as readonly string[]).includes(s);

const USAGE =
  'compliance export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format csv|jsonl [--of coverage] [--out FILE] | ' +
  'compliance report --out FILE.html [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]';

export async function compliance(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  const [sub, ...extra] = args.positionals;
  if (extra.length > 0) throw new UsageError(USAGE);
  if (sub === 'export') return exportRows(ctx, args);
  if (sub === 'report') return report(ctx, args);
  throw new UsageError(USAGE);
}

function dayRange(args: ParsedArgs, required: boolean): DayRange {
  const from = dayFlag(args, 'from');
  const to = dayFlag(args, 'to');
  if (required && (from === undefined || to === undefined))
    throw new UsageError('--from and --to are required: the first and last UTC day of delivery to export (YYYY-MM-DD)');
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

function outFlag(args: ParsedArgs, required: boolean): string | undefined {
  const out = stringFlag(args, 'out');
  if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
  if (required && out === undefined) throw new UsageError('--out is required: the HTML file to write');
  return out;
}

async function exportRows(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['from', 'to', 'format', 'out', 'json', 'of']);
  const range = dayRange(args, true);
  const format = stringFlag(args, 'format');
  if (format === undefined || !isFormat(format)) throw new UsageError(`--format is required: ${FORMATS.join(' or ')}`);
  const of = stringFlag(args, 'of') ?? 'rows';
  if (of !== 'rows' && of !== 'coverage') throw new UsageError('--of is rows (the default) or coverage');
  const file = outFlag(args, false);
  // Without --out the rows are the output; --json then would mix a summary into them.
  if (args.flags.has('json') && file === undefined)
    throw new UsageError('--json reports on a file written with --out (the rows themselves are --format jsonl)');
  if (of === 'coverage') return exportCoverage(ctx, args, { from: range.from!, to: range.to! }, format, file);

  // Into a file, the terminal shows the export under way, rows written of the range's delivered rows (the
  // daily totals count them), ops/progress.ts; to stdout the rows are the output.
  const progress = file === undefined ? undefined : terminalProgress();
  const total = progress?.shown ? await deliveredRows(ctx, range) : undefined;
  let written = 0;
  const exported = ctx.service.complianceRows(range, async (rows) => {
    const source = counted(rows, () => written++);
    if (file !== undefined) return writeFileAtomically(file, (out) => writeComplianceExport(source, format, out));
    const out = lineWriter(ctx.out);
    const n = await writeComplianceExport(source, format, out);
    await ended(out);
    return n;
  });
  const rows =
    progress === undefined
      ? await exported
      : await progress.during(`exporting to ${file}`, exported, () => ({
          unit: 'rows',
          done: written,
          ...(total !== undefined ? { total } : {}),
        }));
  if (file !== undefined && args.flags.has('json'))
    ctx.out(JSON.stringify({ exported: rows, file: path.resolve(file), format, range }));
  else if (file !== undefined)
    ctx.err(`exported ${rows} compliance row(s) delivered ${range.from} … ${range.to} to ${file} (${format})`);
  return EXIT.ok;
}

/** How many rows an export of `range` writes: the daily totals count delivered rows. */
async function deliveredRows(ctx: OperatorContext, range: DayRange): Promise<number> {
  const { daily } = await ctx.service.run({ use: 'compliance-totals', range });
  return daily.reduce((n, d) => n + d.reports, 0);
}

async function* counted<T>(rows: AsyncIterable<T>, onRow: () => void): AsyncGenerator<T> {
  for await (const row of rows) {
    onRow();
    yield row;
  }
}

/** What was covered on each day of the range (projections/compliance/coverage-day-row.ts). */
async function exportCoverage(
  ctx: OperatorContext,
  args: ParsedArgs,
  range: { from: string; to: string },
  format: Format,
  file: string | undefined,
): Promise<number> {
  const records = await ctx.service.run({ use: 'compliance-coverage', range });
  if (file === undefined) {
    const out = lineWriter(ctx.out);
    await writeCoverageExport(records, format, out);
    await ended(out);
    return EXIT.ok;
  }
  const n = await writeFileAtomically(file, (out) => writeCoverageExport(records, format, out));
  if (args.flags.has('json'))
    ctx.out(JSON.stringify({ exported: n, file: path.resolve(file), format, range, of: 'coverage' }));
  else ctx.err(`exported ${n} coverage record(s) (day × origin) ${range.from} … ${range.to} to ${file} (${format})`);
  return EXIT.ok;
}

async function report(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['from', 'to', 'out', 'json']);
  const range = dayRange(args, false);
  const file = outFlag(args, true)!;
  const { daily, keys, coverage: covered } = await ctx.service.run({ use: 'compliance-totals', range });
  const html = renderComplianceReport({
    generatedAt: ctx.now().toISOString(),
    range,
    daily,
    coverage: covered,
    covers: coverage(ctx, keys),
  });
  await writeFileAtomically(file, async (out) => {
    out.write(html);
  });
  const reports = daily.reduce((n, d) => n + d.reports, 0);
  const days = new Set(daily.map((d) => d.day)).size;
  if (args.flags.has('json')) ctx.out(JSON.stringify({ wrote: path.resolve(file), reports, days }));
  else ctx.out(`wrote ${file}: ${reports} delivered report(s) over ${days} day(s)`);
  return EXIT.ok;
}

/**
 * What the report covers, from the configuration the operator runs with (the service's own) and the
 * deliveries themselves. A development chain: outside production, or a chain on this machine (the
 * devnet runs Base's chain id with test keys, so the network alone cannot tell).
 */
function coverage(ctx: OperatorContext, keys: { networks: string[]; evidenceKeyIds: string[] }): ComplianceCoverage {
  const c = ctx.config;
  const rpcHost = c.rpcUrl ? new URL(c.rpcUrl).hostname : undefined;
  const localChain =
    rpcHost === undefined || rpcHost === 'localhost' || rpcHost === '[::1]' || rpcHost.startsWith('127.');
  return {
    baseUrl: c.publicBaseUrl ?? `(PUBLIC_BASE_URL not set: the address the service listens on, port ${c.port})`,
    network: c.network,
    developmentChain: !c.production || localChain,
    recipient:
      c.payTo ?? (c.production ? '(PAY_TO not set)' : `${privateKeyToAccount(ROLE_KEYS.payTo).address} (devnet)`),
    deliveryNetworks: keys.networks,
    evidenceKeyIds: keys.evidenceKeyIds,
  };
}

/** Ends the stream if the writer did not, and waits until everything is flushed. */
async function ended(out: Writable): Promise<void> {
  // Waits for 'finish' only ('close' is not needed: the file is synced through its own handle after).
  if (out.writableFinished) return;
  if (out.destroyed) throw out.errored ?? new Error('the output stream closed before the export was written');
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.once('finish', () => resolve());
    if (!out.writableEnded) out.end();
  });
}

/**
 * Writes FILE through `write` with mode 0600: to a temporary name in the same directory, synced, then
 * renamed over FILE. On any failure the temporary file is removed and FILE is left as it was.
 */
export async function writeFileAtomically<T>(
  file: string,
  write: (out: NodeJS.WritableStream) => Promise<T>,
): Promise<T> {
  const target = path.resolve(file);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const out = (await open(temp, 'wx', 0o600)).createWriteStream(); // closes its handle when finished or destroyed
  try {
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => {}); // observed through the race below or by ended()
    const result = await Promise.race([write(out), failed]);
    await ended(out);
    const synced = await open(temp, 'r+');
    try {
      await synced.sync();
    } finally {
      await synced.close();
    }
    await rename(temp, target);
    return result;
  } catch (err) {
    out.destroy();
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * A writable that hands complete lines to the CLI's line printer (which adds the newline back), so an
 * export to stdout goes through the same output as every other command, one line at a time.
 */
export function lineWriter(printLine: (line: string) => void): Writable {
  let partial = '';
  const utf8 = new StringDecoder('utf8'); // a character may straddle two chunks
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const text = partial + (typeof chunk === 'string' ? chunk : utf8.write(chunk));
      const lines = text.split('\n');
      partial = lines.pop()!;
      for (const line of lines) printLine(line);
      done();
    },
    final(done) {
      partial += utf8.end();
      if (partial !== '') printLine(partial);
      partial = '';
      done();
    },
  });
}
