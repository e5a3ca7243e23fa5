import type { PurchaseFactEvent } from '../feed/fact-event.js';
import type { ReportRow } from '../report-view/report-row.js';

// The operator investigation queue: held and lock_stuck purchases only, one row each. Whether a
// purchase is on it is read off the report row's status (the stream's own `advance`); what the hold
// or lock said comes from the event that raised it. The history is not copied here: it is read from
// the purchase stream when an operator asks, so open and abandoned purchases cost the queue nothing.

export interface QueueItem {
  purchase_id: string;
  kind: 'held' | 'lock_stuck';
  reason: string;
  details: Record<string, unknown>;
  /** Where the purchase was when it was locked. */
  locked_from: string | null;
  since_position: string;
  since: string;
}

export type QueueChange = { put: QueueItem } | { remove: string } | undefined;

const locked = (row: ReportRow | undefined) => row?.status === 'held' || row?.status === 'lock_stuck';

export function queueChange(
  before: ReportRow | undefined,
  after: ReportRow | undefined,
  e: PurchaseFactEvent,
): QueueChange {
  if (after && locked(after) && (e.type === 'Held' || e.type === 'LockStuck')) {
    return {
      put: {
        purchase_id: after.purchase_id,
        kind: e.type === 'Held' ? 'held' : 'lock_stuck',
        reason: e.facts.reason,
        details: e.facts.details,
        locked_from: after.locked_from,
        since_position: e.position.toString(),
        since: e.facts.at,
      },
    };
  }
  if (locked(before) && !locked(after)) return { remove: e.purchase_id };
  return undefined;
}
