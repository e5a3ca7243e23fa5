import { listPurchases, type PurchaseFilter } from '../../projections/queries/purchases.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import type { PurchaseStatus } from '../../streams/purchase/state.js';
import { isCalendarDay, onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, withReadModels, type OperatorContext } from './context.js';
import { shortId, table } from './table.js';

// `purchases [--status S] [--since DATE] [--origin O] [--limit N] [--json]`: purchases from the report
// view (rm_purchases), newest quote first. The table is for a terminal of about 120 columns: the id
// is its first SHORT_ID (table.ts) hex characters (`show` and `move` take such a prefix), the classification a
// short label, the resource without `https://` and clipped with "…", the price in micro-USDC;
// `--json` prints the full rows.
//
//   npm run ops -- purchases --status lock_stuck --since 2026-11-01

const WIDTH = 120;
const MAX_LIMIT = 10_000;
const DEFAULT_LIMIT = 100;

type ListedStatus = Exclude<PurchaseStatus, 'none'>;
/** Every status a report-view row can have (a row exists from the quote on, so never 'none'); a
 *  Record, so a new status must be added here. */
const LISTED: Record<ListedStatus, true> = {
  quoted: true,
  offered: true,
  checkpointed: true,
  settlement_submitted: true,
  settled: true,
  delivered: true,
  held: true,
  lock_stuck: true,
  closed: true,
};
export const LISTED_STATUSES = Object.keys(LISTED) as ListedStatus[];
const isListedStatus = (s: string): s is ListedStatus => Object.hasOwn(LISTED, s);

/** Classifications as short labels for the table (the vocabulary's long names are in --json and `show`). */
const CLASSIFICATION_LABELS: Record<string, string> = {
  PERMITTED_BY_OBSERVED_DECLARATION: 'PERMITTED',
  PROHIBITED_BY_OBSERVED_DECLARATION: 'PROHIBITED',
  NO_MACHINE_READABLE_DECLARATION: 'NO_DECLARATION',
};

export const clip = (s: string, width: number): string =>
  s.length <= width ? s : `${s.slice(0, Math.max(0, width - 1))}…`;

/** `--since`: a day (YYYY-MM-DD, UTC midnight) or an ISO time (UTC when it names no offset), as an ISO instant. */
export function parseSince(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:\d{2})?)?$/.exec(value);
  if (!m || !isCalendarDay(m[1]!))
    throw new UsageError(
      '--since must be a day (YYYY-MM-DD) or an ISO time (YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]); ' +
        `got ${JSON.stringify(value)}`,
    );
  const at = new Date(m[2] ? `${m[1]}T${m[2]}${m[3] ?? 'Z'}` : `${m[1]}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) throw new UsageError(`--since ${JSON.stringify(value)} is not a time`);
  return at.toISOString();
}

export function purchaseFilter(args: ParsedArgs): PurchaseFilter {
  const status = stringFlag(args, 'status');
  if (status !== undefined && !isListedStatus(status))
    throw new UsageError(`--status must be one of ${LISTED_STATUSES.join(' | ')} (got ${JSON.stringify(status)})`);
  const since = stringFlag(args, 'since');
  const origin = stringFlag(args, 'origin');
  if (origin !== undefined && origin.trim() === '') throw new UsageError('--origin needs a value');
  const limitText = stringFlag(args, 'limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (limitText !== undefined && (!/^[0-9]+$/.test(limitText) || limit < 1 || limit > MAX_LIMIT))
    throw new UsageError(`--limit must be an integer from 1 to ${MAX_LIMIT} (got ${JSON.stringify(limitText)})`);
  return {
    ...(status ? { status } : {}),
    ...(since !== undefined ? { since: parseSince(since) } : {}),
    ...(origin !== undefined ? { origin } : {}),
    limit,
  };
}

/** The table's rows: the resource column takes what the other columns leave of WIDTH (at least 20, at most 60). */
export function purchaseTable(rows: readonly ReportRow[]): string[] {
  const headers = ['id', 'status', 'sku', 'resource', 'purpose', 'classification', 'price', 'quoted_at'];
  const cells = rows.map((r) => [
    shortId(r.purchase_id),
    r.status,
    r.sku,
    r.resource.replace(/^https:\/\//, ''),
    r.purpose,
    CLASSIFICATION_LABELS[r.classification] ?? r.classification,
    r.price_micro,
    r.quoted_at.slice(0, 16).replace('T', ' '),
  ]);
  const RESOURCE = headers.indexOf('resource');
  const others = headers.reduce(
    (n, h, i) => (i === RESOURCE ? n : n + Math.max(h.length, ...cells.map((c) => c[i]!.length))),
    0,
  );
  const resourceWidth = Math.min(60, Math.max(20, WIDTH - others - 2 * (headers.length - 1)));
  return table(
    headers,
    cells.map((c) => c.map((v, i) => (i === RESOURCE ? clip(v, resourceWidth) : v))),
  );
}

export async function purchases(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['status', 'since', 'origin', 'limit', 'json']);
  if (args.positionals.length > 0)
    throw new UsageError(
      `purchases takes no arguments (got ${args.positionals.join(' ')}); filter with --status, --since, --origin`,
    );
  const filter = purchaseFilter(args);
  const rows = await withReadModels(ctx, (_store, models) => listPurchases(models.db, filter));

  if (args.flags.has('json')) {
    ctx.out(JSON.stringify({ purchases: rows }));
    return EXIT.ok;
  }
  if (rows.length === 0) {
    ctx.out('no purchase matches');
    return EXIT.ok;
  }
  for (const l of purchaseTable(rows)) ctx.out(l);
  ctx.out('');
  ctx.out(
    `${rows.length} purchase(s), newest first` +
      `${rows.length === filter.limit ? ` (the first ${filter.limit}; --limit for more)` : ''}; ` +
      'price in micro-USDC, quoted_at in UTC',
  );
  ctx.out('full rows: --json; one purchase: npm run ops -- show <id>');
  return EXIT.ok;
}
