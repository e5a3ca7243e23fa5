import * as t from 'io-ts';
import type { PurchaseFilter } from '../../projections/queries/purchases.js';
import type { PurchaseStatus } from '../../streams/purchase/state.js';
import { isCalendarDay } from './calendar-day.js';
import { UsageError } from './usage-error.js';

// Which purchases an operator lists (`ops purchases`, GET /operator/v1/purchases): the filter as given
// (PurchaseQuery, strings from a command line or a query string) checked into the report view's
// PurchaseFilter. One check for both callers, so they refuse the same values with the same words.

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

/** The filter as an operator writes it; each value checked by purchaseFilter. */
export const PurchaseQuery = t.partial({ status: t.string, since: t.string, origin: t.string, limit: t.string });
export type PurchaseQuery = t.TypeOf<typeof PurchaseQuery>;

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

export function purchaseFilter({ status, since, origin, limit: limitText }: PurchaseQuery): PurchaseFilter {
  if (status !== undefined && !isListedStatus(status))
    throw new UsageError(`--status must be one of ${LISTED_STATUSES.join(' | ')} (got ${JSON.stringify(status)})`);
  if (origin !== undefined && origin.trim() === '') throw new UsageError('--origin needs a value');
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
