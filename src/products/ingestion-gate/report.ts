import type { GATE_SKU, GateReport } from '@rights-preflight/wire/contract/ingestion-gate.js';
import type { Classification } from '@rights-preflight/wire/contract/common.js';
import * as t from 'io-ts';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { QuotedOf } from '../../money-path/product.js';
import { reportHeader } from '../../report/report-header.js';
import { purposeReading, reportReading, type ReportReading } from '../../report/report-reading.js';
import { reportReasons } from '../../report/report-reasons.js';
import { checkpointDraft } from '../../report/checkpoint-draft.js';
import { mostRestrictive } from '../../report/most-restrictive.js';
import { severalResourcesEvidence } from '../../report/several-resources.js';
import { evidenceSignalsSummary, reportSignals } from '../../report/report-signals.js';
import type { Checkpoint } from '@rights-preflight/wire/contract/checkpoint.js';

// The gate's report and evidence payload, built from what was observed at quote time (the `Quoted`
// readings), exactly like the single report: the buyer pays for what was observed when the offer was
// made, and a resumed delivery is identical in content. Signing, settlement binding and the delivery
// proof are the shared money path's (src/money-path/deliver.ts), which gets this drafter from service.ts.

/** `Quoted.reading` of a gate purchase: one RSL reading per unique resource, in request order. */
export const GateReadings = t.type({
  version: t.literal('rsl-gate-readings-v1'),
  readings: t.array(t.UnknownRecord),
});
export type GateReadings = t.TypeOf<typeof GateReadings>;

/** One report entry; the reading is the stored object (reportReading checks it in place), `signals` included. */
export function gateEntry(reading: ReportReading, purpose: GatePurpose) {
  const pr = purposeReading(reading, purpose);
  return {
    resource: reading.resource,
    classification: pr.classification as Classification,
    legal_clearance: false as const,
    declaration_found: reading.declaration_found,
    reasons: reportReasons(pr),
    ...reportSignals(reading, purpose, pr.classification),
  };
}

/** The classification a gate quote previews: its entries' most restrictive one. */
export const gatePreview = mostRestrictive;

export function draftGateReport(q: QuotedOf<typeof GATE_SKU>, evidenceKeyId: string) {
  const { input } = q;
  if (!GateReadings.is(q.reading)) throw new Error(`the reading of purchase ${q.purchase_id} is not a gate's`);
  // The readings as stored (the evidence embeds them verbatim), and what the report shows of each.
  const { readings: stored } = q.reading;
  const readings = stored.map((r) => reportReading(r, q.purchase_id));
  const entries = readings.map((r) => gateEntry(r, input.purpose));
  const header = reportHeader(q);
  const checkpoints = readings.map((r, i) => checkpointDraft(q, r, stored[i], entries[i]!.classification));
  const report = (signed: readonly Checkpoint[]): GateReport => ({
    ...header,
    geo: input.geo,
    freshness_seconds: input.freshness_seconds,
    observed_at: readings.map((r) => r.observed_at).sort()[0]!,
    resources: entries.map((e, i) => ({ ...e, checkpoint: signed[i] ?? null })),
  });
  const evidence = severalResourcesEvidence(
    q,
    { freshness_seconds: input.freshness_seconds },
    readings.map((r, i) => ({
      resource: r.resource,
      classification: entries[i]!.classification,
      ...evidenceSignalsSummary(stored[i], input.purpose, entries[i]!.classification),
      reading: stored[i],
    })),
    evidenceKeyId,
  );
  return { report, evidence, checkpoints };
}
