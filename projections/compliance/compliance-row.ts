import * as t from 'io-ts';
import { RefundStatusCodec } from '../refunds/refund-status.js';

// One row of the compliance read model: one delivered resource (a single report's, or one of an ingestion
// gate's lines, under its own origin and classification, all tied to the gate's one payment), with
// everything an auditor needs to
// tie it to the report the buyer holds (the digests `rights-preflight verify` recomputes), what was
// observed, what was paid, and whether the purchase was later held or refunded. These codecs are the
// single source of truth for the export formats (CSV columns, JSONL objects) and the HTML report.

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

// The signals beside RSL the delivered report states for the line; last in the export, after
// previous_report_sha256, so no earlier CSV column moves (docs/decisions.md, "The signals on the
// read side").
const signalsProps = {
  /** The line's `signals_summary`; null for a report drafted before signals were read (never NONE_OBSERVED). */
  signals_summary: nullable(t.string),
  /** Each observation of the line as "standard:sha256", in report order (CSV: joined by one space); [] when
   *  none was observed, null for a report drafted before the signals beside RSL were read. */
  signals: nullable(t.array(t.string)),
};

const rowProps = {
  purchase_id: t.string,
  /** This resource's place in the purchase (1-based) and how many it covers: 1 of 1 for a single report. */
  line: t.number,
  lines: t.number,
  sku: t.string,
  resource: t.string,
  origin: nullable(t.string),
  purpose: t.string,
  user_class: t.string,
  geo: nullable(t.string),
  classification: t.string,
  decision: t.string,
  /** A revalidation's line: whether its report says the resource changed since the checkpoint; else null. */
  changed: nullable(t.boolean),
  observed_at: nullable(t.string),
  /** sha256 of every RSL document observed (the reading's documents), in reading order. */
  rsl_document_sha256: t.array(t.string),
  evidence_key_id: nullable(t.string),
  report_sha256: t.string,
  evidence_sha256: t.string,
  delivery_proof_sha256: t.string,
  payer: nullable(t.string),
  /** The purchase's whole payment (the same on each of its lines). */
  amount_micro: nullable(t.string),
  /** This line's share of it: equal shares, the remainder on line 1; the lines' shares sum to the payment. */
  line_amount_micro: nullable(t.string),
  network: nullable(t.string),
  transaction: nullable(t.string),
  delivered_at: t.string,
  /** Held after delivery (an open hold); cleared when an operator resolves it. */
  held: t.boolean,
  held_reason: nullable(t.string),
  refund_status: RefundStatusCodec,
};

export const ComplianceRow = t.type({ ...rowProps, ...signalsProps }, 'ComplianceRow');
export type ComplianceRow = t.TypeOf<typeof ComplianceRow>;

/** The read model's columns. */
export const COMPLIANCE_COLUMNS = Object.keys(ComplianceRow.props) as (keyof ComplianceRow)[];

/**
 * A row as exported (`ops compliance export`, GET /operator/v1/compliance/rows): the read model's row and,
 * for a revalidation (sku rights.revalidate.v1), `previous_report_sha256`: the report_sha256 of the report
 * whose checkpoint this line re-checked, so an auditor can follow a URL's chain of observations; null for
 * other SKUs. Read from the purchase's `Quoted` event when exported (docs/decisions.md,
 * "Revalidation"), not kept in the read model.
 */
export const ComplianceExportRow = t.type(
  { ...rowProps, previous_report_sha256: nullable(t.string), ...signalsProps },
  'ComplianceExportRow',
);
export type ComplianceExportRow = t.TypeOf<typeof ComplianceExportRow>;

/** Column order of the CSV export (and of the JSONL objects' keys). */
export const COMPLIANCE_EXPORT_COLUMNS = Object.keys(ComplianceExportRow.props) as (keyof ComplianceExportRow)[];

/**
 * Daily aggregate: delivered resources (compliance rows) per day (UTC, of delivered_at) × origin × purpose ×
 * classification × sku; `amount_micro` sums their line shares, so a day's amounts sum to its payments;
 * `changed` counts the rows whose `changed` is true (revalidated resources that changed).
 * `restricted_by_other_signal` counts the rows whose signals_summary is RESTRICTED_BY_OTHER_SIGNAL.
 */
export const ComplianceDaily = t.type(
  {
    day: t.string, // YYYY-MM-DD
    origin: t.string, // '' when the reading had no origin
    purpose: t.string,
    classification: t.string,
    sku: t.string,
    reports: t.number,
    amount_micro: t.string,
    held: t.number,
    refunded: t.number,
    changed: t.number,
    /** Rows whose signals_summary is RESTRICTED_BY_OTHER_SIGNAL: another standard restricts what RSL did not
     *  prohibit (docs/wire.md §15). */
    restricted_by_other_signal: t.number,
  },
  'ComplianceDaily',
);
export type ComplianceDaily = t.TypeOf<typeof ComplianceDaily>;

/** An inclusive day range; either end open. Dates are YYYY-MM-DD (UTC). */
export interface DayRange {
  from?: string;
  to?: string;
}
