import type { ReportRow } from '../../projections/report-view/report-row.js';
import { purchaseFilter, type PurchaseQuery } from '../../src/operator/purchase-filter.js';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { shortId, table } from './table.js';

// `purchases [--status S] [--since DATE] [--origin O] [--limit N] [--json]`: purchases from the report
// view (rm_purchases), newest quote first. The table is for a terminal of about 120 columns: the id
// is its first SHORT_ID (table.ts) hex characters (`show` and `move` take such a prefix), the classification a
// short label, the resource without `https://` and clipped with "…", the price in micro-USDC;
// `--json` prints the full rows.
//
//   npm run ops -- purchases --status lock_stuck --since 2026-11-01

const WIDTH = 120;

/** Classifications as short labels for the table (the vocabulary's long names are in --json and `show`). */
const CLASSIFICATION_LABELS: Record<string, string> = {
  PERMITTED_BY_OBSERVED_DECLARATION: 'PERMITTED',
  PROHIBITED_BY_OBSERVED_DECLARATION: 'PROHIBITED',
  NO_MACHINE_READABLE_DECLARATION: 'NO_DECLARATION',
};

export const clip = (s: string, width: number): string =>
  s.length <= width ? s : `${s.slice(0, Math.max(0, width - 1))}…`;

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
  const query: PurchaseQuery = {};
  for (const name of ['status', 'since', 'origin', 'limit'] as const) {
    const value = stringFlag(args, name);
    if (value !== undefined) query[name] = value;
  }
  const filter = purchaseFilter(query); // checked here, before the store is opened or the service asked
  const rows = await ctx.service.run({ use: 'purchases', query });

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
