import type { RefundRow } from '../refunds/refund-row.js';
import type { ReportRow } from '../report-view/report-row.js';
import type { ComplianceRow } from './compliance-row.js';
import { resourceLinesOf } from '../report-view/resource-lines.js';
import type { SignalsSummary } from '@rights-preflight/wire/signals/signal-observation.js';

const RESTRICTED_BY_OTHER_SIGNAL: SignalsSummary = 'RESTRICTED_BY_OTHER_SIGNAL';

// A delivered purchase's compliance rows (one per resource it covers), from its report row and its refund
// request (if any). Pure; none until the purchase is delivered (a purchase held after delivery keeps its
// rows, marked held).
// The rm_compliance view (schema.ts) says the same in SQL; the daily aggregates are computed from this.

export function complianceOf(
  report: ReportRow | undefined,
  refund: Pick<RefundRow, 'status'> | null | undefined,
): ComplianceRow[] {
  if (
    !report ||
    report.delivered_at === null ||
    !report.report_sha256 ||
    !report.evidence_sha256 ||
    !report.delivery_proof_sha256
  )
    return [];
  const base: ComplianceRow = {
    purchase_id: report.purchase_id,
    line: 1,
    lines: 1,
    sku: report.sku,
    resource: report.resource,
    origin: report.origin,
    purpose: report.purpose,
    user_class: report.user_class,
    geo: report.geo,
    classification: report.classification,
    decision: report.decision,
    changed: null,
    signals_summary: null,
    signals: null,
    observed_at: report.observed_at,
    rsl_document_sha256: report.rsl_document_sha256,
    evidence_key_id: report.evidence_key_id,
    report_sha256: report.report_sha256,
    evidence_sha256: report.evidence_sha256,
    delivery_proof_sha256: report.delivery_proof_sha256,
    payer: report.payer,
    amount_micro: report.settled_amount_micro,
    line_amount_micro: report.settled_amount_micro,
    network: report.network,
    transaction: report.transaction,
    delivered_at: report.delivered_at,
    held: report.status === 'held',
    held_reason: report.status === 'held' ? report.lock_reason : null,
    refund_status: refund?.status ?? 'none',
  };
  const lines = resourceLinesOf(report);
  const amount = report.settled_amount_micro === null ? null : BigInt(report.settled_amount_micro);
  const n = BigInt(lines.length);
  return lines.map((l) => ({
    ...base,
    ...l,
    lines: lines.length,
    line_amount_micro: amount === null ? null : (amount / n + (l.line === 1 ? amount % n : 0n)).toString(),
  }));
}

/** What one compliance row adds to its day's aggregate. */
export interface DailyContribution {
  key: string;
  day: string;
  origin: string;
  purpose: string;
  classification: string;
  sku: string;
  reports: number;
  amount_micro: bigint;
  held: number;
  refunded: number;
  changed: number;
  restricted_by_other_signal: number;
}

export const dayOf = (iso: string): string => iso.slice(0, 10);

export function contribution(row: ComplianceRow | undefined, sign: 1 | -1): DailyContribution | undefined {
  if (!row) return undefined;
  const day = dayOf(row.delivered_at);
  const origin = row.origin ?? '';
  return {
    key: JSON.stringify([day, origin, row.purpose, row.classification, row.sku]),
    day,
    origin,
    purpose: row.purpose,
    classification: row.classification,
    sku: row.sku,
    reports: sign,
    amount_micro: BigInt(row.line_amount_micro ?? '0') * BigInt(sign),
    held: row.held ? sign : 0,
    refunded: row.refund_status === 'paid' ? sign : 0,
    changed: row.changed === true ? sign : 0,
    restricted_by_other_signal: row.signals_summary === RESTRICTED_BY_OTHER_SIGNAL ? sign : 0,
  };
}
