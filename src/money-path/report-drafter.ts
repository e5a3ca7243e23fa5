import type { GateReport } from '@rights-preflight/wire/contract/ingestion-gate.js';
import type { Report } from '@rights-preflight/wire/contract/report.js';
import type { RevalidationReport } from '@rights-preflight/wire/contract/revalidation.js';
import type { Checkpoint, CheckpointDraft } from '@rights-preflight/wire/contract/checkpoint.js';
import type { PurchaseEventData } from '../../streams/purchase/index.js';
import { REPORT_PROFILE } from '@rights-preflight/wire/contract/common.js';

// A product's report and evidence payload, drafted from what was observed at quote time (the `Quoted`
// reading): what the buyer was offered and paid for, so a resumed delivery is identical in content.
// Each SKU's product drafts its own (./product.ts); signing, the settlement binding and the delivery
// proof are the money path's (./deliver.ts), so the money path imports no product.

export interface DraftedReport {
  evidence: Record<string, unknown>;
  /** One per report resource, in order: the money path ties each to the evidence and signs it (./deliver.ts). */
  checkpoints: CheckpointDraft[];
  /** The report, each resource carrying its signed checkpoint (given in the order of `checkpoints`). */
  report(checkpoints: readonly Checkpoint[]): Report | GateReport | RevalidationReport;
}

/** The fields every SKU's report opens with: what was asked, as the quote recorded it. */
export function reportHeader<Q extends PurchaseEventData<'Quoted'>>(quoted: Q) {
  return {
    sku: quoted.sku as Q['sku'],
    profile: REPORT_PROFILE,
    legal_clearance: false as const,
    purchase_id: quoted.purchase_id,
    purpose: quoted.input.purpose as Q['input']['purpose'],
    tier: quoted.input.tier as Q['input']['tier'],
    user_class: quoted.input.user_class as Q['input']['user_class'],
  };
}

/** The fields the evidence of a SKU over several resources (gate, revalidation) opens with, in signed order. */
export function resourcesEvidenceHeader(quoted: PurchaseEventData<'Quoted'> & { input: { geo: string | null } }) {
  return {
    type: 'evidence',
    sku: quoted.sku,
    purchase_id: quoted.purchase_id,
    input_sha256: quoted.input_sha256,
    legal_clearance: false,
    purpose: quoted.input.purpose,
    user_class: quoted.input.user_class,
    geo: quoted.input.geo,
  };
}
