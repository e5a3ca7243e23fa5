import { createHash } from 'node:crypto';
import type { SettleResponse } from '@x402/core/types';
import { canonicalJson } from '../evidence/canonical-json.js';
import { GATEWAY_VERSION, REPORT_PROFILE, SINGLE_REPORT_SKU } from '../http/wire/common.js';
import type { PaidReportResponse, Report } from '../http/wire/report.js';
import { WrongExpectedRevision } from '../store/port.js';
import type { MoneyPathDeps } from './deps.js';
import { execute, loadPurchase, type Loaded } from './stream.js';
import { draftGateReport, isGateSku } from '../gate/report.js';

// Signs and records the delivery of a settled purchase. The report is built from what was observed
// at quote time (the `Quoted` reading): that is what the buyer was offered and paid for, and it makes
// a resumed delivery identical in content to an uninterrupted one. Exactly one `Delivered` is ever
// appended (expected revision); a loser of that race returns the stored one.

const digest = (value: unknown) => createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');

export function buildDelivery(deps: MoneyPathDeps, loaded: Loaded): { response: PaidReportResponse; payment_response: SettleResponse; delivery_proof_sha256: string } {
  const q = loaded.quoted!;
  // Other SKUs sold through this path build their own report and evidence payload (the ingestion gate:
  // one entry per resource); signing, settlement binding and the delivery proof stay here, shared.
  const drafted = isGateSku(q.sku) ? draftGateReport(deps, loaded) : draftSingleReport(deps, loaded);
  return sealDelivery(deps, loaded, drafted.report as Report, drafted.evidence);
}

function draftSingleReport(deps: MoneyPathDeps, loaded: Loaded): { report: Report; evidence: Record<string, unknown> } {
  const q = loaded.quoted!;
  const pr = q.reading.purposes.find((p) => p.purpose === q.input.purpose)!;
  const reasons = [...new Set(pr.tokens.flatMap((tk) => tk.reasons.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)))))];
  const report: Report = {
    sku: SINGLE_REPORT_SKU,
    profile: REPORT_PROFILE,
    legal_clearance: false,
    purchase_id: q.purchase_id,
    purpose: q.input.purpose,
    tier: q.input.tier,
    user_class: q.input.user_class,
    observed_at: q.reading.observed_at,
    resources: [{
      resource: q.input.resource,
      classification: pr.classification,
      decision: pr.decision,
      legal_clearance: false,
      declaration_found: q.reading.declaration_found,
      reasons,
      checkpoint: null,
    }],
  };
  const evidence = {
    type: 'evidence',
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    purpose: q.input.purpose,
    user_class: q.input.user_class,
    geo: q.reading.geo,
    resources: [{ resource: q.input.resource, classification: pr.classification, decision: pr.decision, reading: q.reading }],
    key_id: deps.evidenceKeyId,
  };
  return { report, evidence };
}

function sealDelivery(deps: MoneyPathDeps, loaded: Loaded, report: Report, evidencePayload: Record<string, unknown>): { response: PaidReportResponse; payment_response: SettleResponse; delivery_proof_sha256: string } {
  const q = loaded.quoted!;
  const s = loaded.settled!;
  const o = loaded.offered!;
  const c = loaded.checkpoint!;
  const evidence = deps.sign(evidencePayload);
  const settlement = {
    network: s.network,
    transaction: s.transaction,
    payer: s.payer,
    amount: s.amount,
    asset: o.requirements.asset,
    pay_to: o.requirements.payTo,
    nonce: c.nonce,
  };
  const deliveryProof = deps.sign({
    type: 'delivery-proof',
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    report_sha256: digest(report),
    evidence_sha256: digest(evidence),
    settlement,
    delivered_at: deps.now().toISOString(),
    key_id: deps.evidenceKeyId,
  });
  const response: PaidReportResponse = {
    version: GATEWAY_VERSION,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    report,
    evidence: evidence as PaidReportResponse['evidence'],
    delivery_proof: deliveryProof as PaidReportResponse['delivery_proof'],
    payment_settlement: { success: true, network: s.network as PaidReportResponse['payment_settlement']['network'], transaction: s.transaction },
  };
  const paymentResponse: SettleResponse = { success: true, transaction: s.transaction, network: s.network as SettleResponse['network'], payer: s.payer };
  return { response, payment_response: paymentResponse, delivery_proof_sha256: digest(deliveryProof) };
}

export async function deliver(deps: MoneyPathDeps, id: string, loaded: Loaded): Promise<Loaded> {
  if (loaded.delivered || !loaded.settled) return loaded;
  const delivery = buildDelivery(deps, loaded);
  try {
    return await execute(deps, id, loaded, { type: 'Deliver', data: delivery });
  } catch (err) {
    if (!(err instanceof WrongExpectedRevision)) throw err;
    return loadPurchase(deps.store, id);
  }
}
