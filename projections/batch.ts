import { complianceOf, contribution, type DailyContribution } from './compliance/compliance-of.js';
import type { FactEvent } from './feed/fact-event.js';
import { queueChange, type QueueItem } from './investigation-queue/queue-item.js';
import { applyToRefundRow, type RefundRow } from './refunds/refund-row.js';
import { applyToReportRow, type ReportRow } from './report-view/report-row.js';

// One batch of events applied to every read model, pure: the rows the batch touches go in (loaded
// by the caller), the row-level changes come out. Only the purchases of this batch are ever held in
// memory; the caller writes the changes and the new checkpoint in one transaction.

export interface BatchRows {
  reports: ReadonlyMap<string, ReportRow>;
  refunds: ReadonlyMap<string, RefundRow>;
}

export interface BatchChanges {
  reports: ReportRow[];
  refunds: RefundRow[];
  queuePut: QueueItem[];
  queueRemove: string[];
  /** What the batch adds to (or takes from) each day's compliance aggregate; the rows are a view. */
  daily: DailyContribution[];
}

/** Purchase ids whose rows must be loaded before the batch: all touched, except those the batch itself creates. */
export function rowsToLoad(events: readonly FactEvent[]): { reports: string[]; refunds: string[] } {
  const created = new Set<string>();
  const reports = new Set<string>();
  const refunds = new Set<string>();
  for (const e of events) {
    if (e.stream === 'purchase' && e.type === 'Quoted' && !reports.has(e.purchase_id)) created.add(e.purchase_id);
    if (!created.has(e.purchase_id)) reports.add(e.purchase_id);
    if (e.stream === 'refund' && e.type !== 'RefundRequested') refunds.add(e.purchase_id);
    // A refund changes the compliance row, which needs the purchase's refund row even when only the purchase moved.
    if (e.stream === 'purchase' && e.type !== 'Quoted') refunds.add(e.purchase_id);
  }
  return { reports: [...reports], refunds: [...refunds] };
}

export function applyBatch(events: readonly FactEvent[], loaded: BatchRows): BatchChanges {
  const reports = new Map(loaded.reports);
  const refunds = new Map(loaded.refunds);
  const touched = new Set<string>();
  const changedReports = new Set<string>();
  const changedRefunds = new Set<string>();
  const queuePut = new Map<string, QueueItem>();
  const queueRemove = new Set<string>();

  for (const e of events) {
    touched.add(e.purchase_id);
    if (e.stream === 'purchase') {
      const before = reports.get(e.purchase_id);
      const after = applyToReportRow(before, e);
      if (after === before || !after) continue;
      reports.set(e.purchase_id, after);
      changedReports.add(e.purchase_id);
      const q = queueChange(before, after, e);
      if (q && 'put' in q) {
        queuePut.set(e.purchase_id, q.put);
        queueRemove.delete(e.purchase_id);
      }
      if (q && 'remove' in q) {
        queuePut.delete(e.purchase_id);
        queueRemove.add(e.purchase_id);
      }
    } else {
      const after = applyToRefundRow(refunds.get(e.purchase_id), e);
      if (!after) continue;
      refunds.set(e.purchase_id, after);
      changedRefunds.add(e.purchase_id);
    }
  }

  const daily = new Map<string, DailyContribution>();
  const add = (c: DailyContribution | undefined) => {
    if (!c) return;
    const d = daily.get(c.key);
    if (!d) {
      daily.set(c.key, { ...c });
      return;
    }
    d.reports += c.reports;
    d.amount_micro += c.amount_micro;
    d.held += c.held;
    d.refunded += c.refunded;
    d.changed += c.changed;
    d.restricted_by_other_signal += c.restricted_by_other_signal;
  };
  for (const id of touched) {
    if (!reports.get(id)?.delivered_at) continue; // no compliance row until delivered, and none is ever removed
    // An unchanged row adds and takes the same contribution; the sums that end at zero are dropped below.
    for (const row of complianceOf(loaded.reports.get(id), loaded.refunds.get(id))) add(contribution(row, -1));
    for (const row of complianceOf(reports.get(id), refunds.get(id))) add(contribution(row, 1));
  }

  return {
    reports: [...changedReports].map((id) => reports.get(id)!),
    refunds: [...changedRefunds].map((id) => refunds.get(id)!),
    queuePut: [...queuePut.values()],
    queueRemove: [...queueRemove],
    daily: [...daily.values()].filter(
      (d) =>
        d.reports !== 0 ||
        d.amount_micro !== 0n ||
        d.held !== 0 ||
        d.refunded !== 0 ||
        d.changed !== 0 ||
        d.restricted_by_other_signal !== 0,
    ),
  };
}
