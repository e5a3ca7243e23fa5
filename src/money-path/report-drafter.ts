import type { GateReport } from '../contract/ingestion-gate.js';
import type { Report } from '../contract/report.js';
import type { PurchaseEventData } from '../../streams/purchase/index.js';
import { REPORT_PROFILE } from '../contract/common.js';

// A product's report and evidence payload, drafted from what was observed at quote time (the `Quoted`
// reading): what the buyer was offered and paid for, so a resumed delivery is identical in content.
// Each SKU brings its own (service.ts wires them by SKU); signing, the settlement binding and the
// delivery proof are the money path's (./deliver.ts), so the money path imports no product.

export interface DraftedReport {
  report: Report | GateReport;
  evidence: Record<string, unknown>;
}

export type ReportDrafter = (quoted: PurchaseEventData<'Quoted'>, evidenceKeyId: string) => DraftedReport;

/** Drafters by SKU. */
export type ReportDrafters = Readonly<Record<string, ReportDrafter>>;

/** The fields every SKU's report opens with: what was asked, as the quote recorded it. */
export function reportHeader<S extends string, I extends { purpose: string; tier: string; user_class: string }>(
  sku: S,
  quoted: PurchaseEventData<'Quoted'>,
  input: I,
) {
  return {
    sku,
    profile: REPORT_PROFILE,
    legal_clearance: false as const,
    purchase_id: quoted.purchase_id,
    purpose: input.purpose as I['purpose'],
    tier: input.tier as I['tier'],
    user_class: input.user_class as I['user_class'],
  };
}
