import { GATE_SKU, type GateReport } from '../../contract/ingestion-gate.js';
import type { Classification } from '../../contract/common.js';
import type { ResourceReading } from '../../rsl/reading.js';
import type { GatePurpose, UserClass } from '../../rsl/purposes.js';
import type { Tier } from '../../pricing/prices.js';
import { reportHeader, type ReportDrafter } from '../../money-path/report-drafter.js';
import { reportReasons } from '../../money-path/report-reasons.js';

// The gate's report and evidence payload, built from what was observed at quote time (the `Quoted`
// readings), exactly like the single report: the buyer pays for what was observed when the offer was
// made, and a resumed delivery is identical in content. Signing, settlement binding and the delivery
// proof are the shared money path's (src/money-path/deliver.ts), which gets this drafter from service.ts.

/** `Quoted.input` of a gate purchase: the single-report fields (resource = canonical gate URL) plus the body. */
export interface GateQuotedInput {
  sku: typeof GATE_SKU;
  resource: string;
  purpose: GatePurpose;
  tier: Tier;
  user_class: UserClass;
  geo: string | null;
  freshness_seconds: number;
  resources: string[];
}
/** `Quoted.reading` of a gate purchase: one RSL reading per unique resource, in request order. */
export interface GateReadings {
  version: 'rsl-gate-readings-v1';
  readings: ResourceReading[];
}

export function gateEntry(reading: ResourceReading, purpose: GatePurpose) {
  const pr = reading.purposes.find((p) => p.purpose === purpose);
  if (!pr) throw new Error(`reading of ${reading.resource} has no entry for ${purpose}`);
  return {
    resource: reading.resource,
    classification: pr.classification as Classification,
    legal_clearance: false as const,
    declaration_found: reading.declaration_found,
    reasons: reportReasons(pr),
    checkpoint: null,
  };
}

// The gate's one-line preview answers "may I ingest all of this?": a prohibition first, then a license
// demand, then doubts (CONFLICT, UNKNOWN, nothing declared); PERMITTED only when every entry is.
const PREVIEW_ORDER: readonly Classification[] = [
  'PROHIBITED_BY_OBSERVED_DECLARATION',
  'LICENSE_REQUIRED',
  'CONFLICT',
  'UNKNOWN',
  'NO_MACHINE_READABLE_DECLARATION',
  'PERMITTED_BY_OBSERVED_DECLARATION',
];

/** The classification a gate quote previews: its entries' most restrictive one. */
export const gatePreview = (entries: readonly { classification: Classification }[]): Classification =>
  PREVIEW_ORDER.find((c) => entries.some((e) => e.classification === c)) ?? 'UNKNOWN';

export const draftGateReport: ReportDrafter = (q, evidenceKeyId) => {
  const input = q.input as unknown as GateQuotedInput;
  const { readings } = q.reading as unknown as GateReadings;
  const entries = readings.map((r) => gateEntry(r, input.purpose));
  const report: GateReport = {
    ...reportHeader(GATE_SKU, q, input),
    geo: input.geo,
    freshness_seconds: input.freshness_seconds,
    observed_at: readings.map((r) => r.observed_at).sort()[0]!,
    resources: entries,
  };
  const evidence = {
    type: 'evidence',
    sku: GATE_SKU,
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    purpose: input.purpose,
    user_class: input.user_class,
    geo: input.geo,
    freshness_seconds: input.freshness_seconds,
    tier: input.tier,
    resources: readings.map((r, i) => ({
      resource: r.resource,
      classification: entries[i]!.classification,
      reading: r,
    })),
    key_id: evidenceKeyId,
  };
  return { report, evidence };
};
