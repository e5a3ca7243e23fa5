import type { Report } from '@rights-preflight/wire/contract/report.js';
import type { QuotedOf } from '../../money-path/product.js';
import { reportHeader } from '../../report/report-header.js';
import { purposeReading, reportReading } from '../../report/report-reading.js';
import { reportReasons } from '../../report/report-reasons.js';
import type { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { Checkpoint } from '@rights-preflight/wire/contract/checkpoint.js';
import { checkpointDraft } from '../../report/checkpoint-draft.js';
import { evidenceSignalsSummary, reportSignals } from '../../report/report-signals.js';

// The single report (SKU rights.preflight.v1): one resource, one purpose, from the quote's reading.

export function draftSingleReport(q: QuotedOf<typeof SINGLE_REPORT_SKU>, evidenceKeyId: string) {
  const { input } = q;
  const reading = reportReading(q.reading, q.purchase_id);
  const pr = purposeReading(reading, input.purpose);
  const header = reportHeader(q);
  const checkpoint = checkpointDraft(q, reading, q.reading, pr.classification);
  const signals = reportSignals(q.reading, input.purpose, pr.classification);
  const report = ([signed]: readonly Checkpoint[]): Report => ({
    ...header,
    observed_at: reading.observed_at,
    resources: [
      {
        resource: input.resource,
        classification: pr.classification,
        decision: pr.decision,
        legal_clearance: false,
        declaration_found: reading.declaration_found,
        reasons: reportReasons(pr),
        checkpoint: signed ?? null,
        ...signals,
      },
    ],
  });
  const evidence = {
    type: 'evidence',
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    purpose: input.purpose,
    user_class: input.user_class,
    geo: reading.geo,
    // The reading as stored: the evidence embeds it verbatim.
    resources: [
      {
        resource: input.resource,
        classification: pr.classification,
        decision: pr.decision,
        ...evidenceSignalsSummary(q.reading, input.purpose, pr.classification),
        reading: q.reading,
      },
    ],
    key_id: evidenceKeyId,
  };
  return { report, evidence, checkpoints: [checkpoint] };
}
