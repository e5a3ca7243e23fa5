import { SINGLE_REPORT_SKU } from '../../contract/common.js';
import type { Report } from '../../contract/report.js';
import type { ReportPurpose, UserClass } from '../../rsl/purposes.js';
import type { ResourceReading } from '../../rsl/reading.js';
import type { Tier } from '../../pricing/prices.js';
import { reportHeader, type ReportDrafter } from '../../money-path/report-drafter.js';
import { reportReasons } from '../../money-path/report-reasons.js';

// The single report (SKU rights.preflight.v1): one resource, one purpose, from the quote's reading.

/** `Quoted.input` of a single report (the event keeps them as strings; the quote wrote these). */
interface SingleQuotedInput {
  sku: string;
  resource: string;
  purpose: ReportPurpose;
  tier: Tier;
  user_class: UserClass;
}

export const draftSingleReport: ReportDrafter = (q, evidenceKeyId) => {
  const input = q.input as SingleQuotedInput;
  const reading = q.reading as unknown as ResourceReading;
  const pr = reading.purposes.find((p) => p.purpose === input.purpose);
  if (!pr) throw new Error(`reading of ${input.resource} has no entry for ${input.purpose}`);
  const report: Report = {
    ...reportHeader(SINGLE_REPORT_SKU, q, input),
    observed_at: reading.observed_at,
    resources: [
      {
        resource: input.resource,
        classification: pr.classification,
        decision: pr.decision,
        legal_clearance: false,
        declaration_found: reading.declaration_found,
        reasons: reportReasons(pr),
        checkpoint: null,
      },
    ],
  };
  const evidence = {
    type: 'evidence',
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    purpose: input.purpose,
    user_class: input.user_class,
    geo: reading.geo,
    resources: [{ resource: input.resource, classification: pr.classification, decision: pr.decision, reading }],
    key_id: evidenceKeyId,
  };
  return { report, evidence };
};
