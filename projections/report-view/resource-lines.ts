import type { ReportRow } from './report-row.js';

// What a purchase sold, one line per resource: an ingestion gate's resources each under its own origin
// and classification (the row's `resources`), a single report its own resource. Every operator view
// (ops show, the console, the compliance rows) lists a purchase this way, so a 4-URL gate is 4 lines
// under 4 origins, all tied to the purchase's one payment.

export interface ResourceLine {
  /** 1-based place in the purchase. */
  line: number;
  resource: string;
  origin: string | null;
  classification: string;
  decision: string;
  /** A revalidation's line: whether its delivered report says the resource changed; null otherwise. */
  changed: boolean | null;
  observed_at: string | null;
  rsl_document_sha256: string[];
  /** The delivered report's signals_summary for this line (docs/wire.md §15); null before delivery or the signals. */
  signals_summary: string | null;
  /** The line's observations as "standard:sha256" in report order; null where the report has no `signals`. */
  signals: string[] | null;
}

export function resourceLinesOf(
  row: Pick<ReportRow, 'resources' | 'resource' | 'origin' | 'classification' | 'decision' | 'observed_at'> &
    Pick<ReportRow, 'rsl_document_sha256' | 'changed' | 'signals_summary' | 'signals'>,
): ResourceLine[] {
  if (!row.resources || row.resources.length === 0)
    return [
      {
        line: 1,
        resource: row.resource,
        origin: row.origin,
        classification: row.classification,
        decision: row.decision,
        changed: row.changed?.[0] ?? null,
        observed_at: row.observed_at,
        rsl_document_sha256: row.rsl_document_sha256,
        signals_summary: row.signals_summary?.[0] ?? null,
        signals: row.signals?.[0] ?? null,
      },
    ];
  return row.resources.map((l, i) => ({
    line: i + 1,
    resource: l.resource,
    origin: l.origin,
    classification: l.classification,
    decision: l.decision ?? row.decision,
    changed: row.changed?.[i] ?? null,
    observed_at: l.observed_at,
    rsl_document_sha256: l.rsl_documents,
    signals_summary: row.signals_summary?.[i] ?? null,
    signals: row.signals?.[i] ?? null,
  }));
}

/** A resource line with what ties it to its purchase: the product, the purpose, the digests, the payment. */
export interface SoldLine extends ResourceLine {
  purchase_id: string;
  sku: string;
  purpose: string;
  report_sha256: string | null;
  evidence_sha256: string | null;
  transaction: string | null;
}

export const soldLinesOf = (row: ReportRow): SoldLine[] =>
  resourceLinesOf(row).map((l) => ({
    purchase_id: row.purchase_id,
    sku: row.sku,
    purpose: row.purpose,
    ...l,
    report_sha256: row.report_sha256,
    evidence_sha256: row.evidence_sha256,
    transaction: row.transaction,
  }));
