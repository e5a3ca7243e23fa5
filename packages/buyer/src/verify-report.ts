import { isLeft } from 'fp-ts/lib/Either.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import {
  DeliveryProofPayload,
  EvidencePayload,
  OfferReceiptPayload,
} from '@rights-preflight/wire/evidence/payloads.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { GATE_SKU, IngestionGateResponse } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { REVALIDATE_SKU, RevalidationResponse } from '@rights-preflight/wire/contract/revalidation.js';
import { boundNonce, looksBound } from '@rights-preflight/wire/payment/binding.js';
import { decisionFor } from '@rights-preflight/wire/rsl/vocabulary.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';
import * as t from 'io-ts';
import { checkpointsOfReportFail } from './verify-checkpoint.js';
import { signalsDisagree, signalsOfReport, type VerifiedSignals } from './report-signals.js';

// Verification of a paid report, shared by the buyer (online, right after delivery) and the CLI
// `verify` (offline, a saved file). Pure, synchronous, browser-safe. Returns the first failed check
// as a short reason that never contains a secret.

export const SAVED_REPORT_FORMAT = 'rights-preflight-saved-report-v1' as const;

/** What `buy` writes to disk: the delivered response plus the signed offer it paid. No secrets. */
export interface SavedReport {
  format: typeof SAVED_REPORT_FORMAT;
  service: string;
  evidence_key: { key_id: string; public_key: string };
  binding: { resource: string; input_sha256: string; nonce: string; key_source: string };
  offer_receipt: unknown;
  response: unknown;
}

export interface ExpectedSettlement {
  network: string;
  asset: string;
  pay_to: string;
  amount: string;
  payer: string;
  nonce: string;
  resource?: string;
  input_sha256?: string;
  purchase_id?: string;
}

export interface VerifyInput {
  response: unknown;
  /** The offer receipt envelope from PAYMENT-REQUIRED (binds nonce, resource, input and price); null when
   *  the buyer paid on its first request, before any offer. */
  offerReceipt?: unknown;
  /** The binding as the buyer understood it (from the offer's service-request-binding extension). */
  binding?: { resource: string; input_sha256: string; nonce: string };
  /** What the buyer signed (online). */
  expected?: ExpectedSettlement;
  /** The binding key (claim token / X-Service-Request value) if the verifier has it: the nonce is recomputed. */
  bindingKey?: string;
}

export type VerifyResult =
  | {
      ok: true;
      purchase_id: string;
      transaction: string;
      amount: string;
      payer: string;
      classifications: { resource: string; classification: string; decision: string }[];
      /** The purpose asked about, and per resource the signals beside RSL the evidence signs (docs/wire.md §15). */
      purpose: string;
      signals: VerifiedSignals[];
    }
  | { ok: false; reason: string };

const sameAddr = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const fail = (reason: string): VerifyResult => ({ ok: false, reason });

/** A single report (GET /v1/rights/reports/{id}, preflight), an ingestion-gate report or a revalidation. */
const PaidResponse = t.union([PaidReportResponse, IngestionGateResponse, RevalidationResponse]);

type PaidBody = t.TypeOf<typeof PaidResponse>;
type Report = PaidBody['report'];
type Evidence = t.TypeOf<typeof EvidencePayload>;
type Proof = t.TypeOf<typeof DeliveryProofPayload>;
type Settlement = Proof['settlement'];
/** Why a check refuses the report, or undefined when it passes. The checks run in the order below. */
type Problem = string | undefined;

/**
 * A gate's binding resource is the gate URL and a revalidation's the revalidate URL (its question is its
 * checkpoints, which the report does not repeat: the offer receipt's input_sha256 and the proof bind it).
 */
const manyResources = (report: Report) => report.sku === GATE_SKU || report.sku === REVALIDATE_SKU;

const decisionOf = (r: Report['resources'][number]) => ('decision' in r ? r.decision : decisionFor(r.classification));

/** Both envelopes verify with the pinned key and carry payloads of the right shape. */
function signedParts(body: PaidBody, key: string): { evidence: Evidence; proof: Proof } | string {
  if (!verifyEnvelope(body.evidence, key)) return 'evidence signature does not verify with the pinned key';
  if (!verifyEnvelope(body.delivery_proof, key)) return 'delivery proof signature does not verify with the pinned key';
  const ev = EvidencePayload.decode(body.evidence.payload);
  if (isLeft(ev)) return 'evidence payload has the wrong shape';
  const pr = DeliveryProofPayload.decode(body.delivery_proof.payload);
  if (isLeft(pr)) return 'delivery proof payload has the wrong shape';
  return { evidence: ev.right, proof: pr.right };
}

/** The report, the evidence and the proof are about the same purchase, input and resources. */
function agreementProblem(body: PaidBody, evidence: Evidence, proof: Proof): Problem {
  const report = body.report;
  if (proof.report_sha256 !== digestOf(report))
    return 'report digest does not match the delivery proof (report_sha256)';
  if (proof.evidence_sha256 !== digestOf(body.evidence))
    return 'evidence digest does not match the delivery proof (evidence_sha256)';
  if (proof.purchase_id !== report.purchase_id || evidence.purchase_id !== report.purchase_id)
    return 'purchase id differs between report, evidence and proof';
  if (proof.input_sha256 !== body.input_sha256 || evidence.input_sha256 !== body.input_sha256)
    return 'input_sha256 differs between response, evidence and proof';
  if (evidence.resources.length !== report.resources.length) return 'evidence and report name different resources';
  for (let i = 0; i < report.resources.length; i++) {
    const r = report.resources[i]!;
    const e = evidence.resources[i]!;
    if (
      r.resource !== e.resource ||
      r.classification !== e.classification ||
      (e.decision !== undefined && e.decision !== decisionOf(r))
    ) {
      return `report resource ${i} differs from the signed evidence`;
    }
    if (signalsDisagree(r, e)) return `report resource ${i} signals differ from the signed evidence`;
  }
  return undefined;
}

/**
 * A gate report answers several resources; its binding resource is the gate URL, so what ties the
 * report to the payment is the question itself: input_sha256 recomputed from the report's own fields.
 */
function gateQuestionProblem(report: Report, proof: Proof): Problem {
  const g = report as t.TypeOf<typeof IngestionGateResponse>['report'];
  const question = gateInput({
    resources: g.resources.map((r) => r.resource),
    purpose: g.purpose,
    user_class: g.user_class,
    geo: g.geo,
    freshness_seconds: g.freshness_seconds,
    tier: g.tier,
  });
  if (question.input_sha256 !== proof.input_sha256 || question.body.resources.length !== g.resources.length)
    return 'the gate report does not answer the paid question (input_sha256 recomputed from the report differs)';
  return undefined;
}

function settlementFormProblem(ps: PaidBody['payment_settlement'], s: Settlement): Problem {
  if (!TxHash.is(ps.transaction)) return 'transaction hash has the wrong form';
  if (ps.transaction.toLowerCase() !== s.transaction.toLowerCase())
    return 'transaction hash differs from the signed delivery proof';
  if (ps.network !== s.network) return 'settlement network differs from the signed delivery proof';
  if (!looksBound(s.nonce)) return 'settled nonce is not a request-bound nonce';
  return undefined;
}

/** The signed offer receipt names this purchase, nonce, input, resource and terms. */
function offerReceiptProblem(input: VerifyInput, proof: Proof, report: Report, key: string): Problem {
  const s = proof.settlement;
  if (!verifyEnvelope(input.offerReceipt, key)) return 'offer receipt signature does not verify with the pinned key';
  const rc = OfferReceiptPayload.decode((input.offerReceipt as { payload: unknown }).payload);
  if (isLeft(rc)) return 'offer receipt payload has the wrong shape';
  const r = rc.right;
  if (r.purchase_id !== proof.purchase_id) return 'binding mismatch: offer receipt is for another purchase';
  if (r.nonce.toLowerCase() !== s.nonce.toLowerCase())
    return 'binding mismatch: settled nonce is not the offered bound nonce';
  if (r.input_sha256 !== proof.input_sha256) return 'binding mismatch: offer input_sha256 differs from the proof';
  if (!manyResources(report) && r.resource !== report.resources[0]?.resource)
    return 'binding mismatch: offer resource differs from the report';
  if (input.binding && input.binding.resource !== r.resource)
    return 'binding mismatch: binding resource differs from the signed offer';
  if (r.amount !== s.amount || !sameAddr(r.asset, s.asset) || !sameAddr(r.pay_to, s.pay_to) || r.network !== s.network)
    return 'settlement differs from the signed offer (amount, asset, recipient or network)';
  if (
    input.bindingKey !== undefined &&
    boundNonce({ resource: r.resource, key: input.bindingKey, input_sha256: r.input_sha256 }) !== r.nonce.toLowerCase()
  )
    return 'binding mismatch: nonce recomputed from the key does not match';
  return undefined;
}

function bindingProblem(b: NonNullable<VerifyInput['binding']>, proof: Proof): Problem {
  if (b.nonce.toLowerCase() !== proof.settlement.nonce.toLowerCase())
    return 'binding mismatch: binding nonce differs from the settled nonce';
  if (b.input_sha256 !== proof.input_sha256) return 'binding mismatch: binding input_sha256 differs from the proof';
  return undefined;
}

/** The settlement is what this buyer signed and paid. */
function expectedProblem(x: NonNullable<VerifyInput['expected']>, proof: Proof, report: Report): Problem {
  const s = proof.settlement;
  if (x.network !== s.network) return 'settlement network differs from what was paid';
  if (!sameAddr(x.asset, s.asset)) return 'settlement asset differs from what was paid';
  if (!sameAddr(x.pay_to, s.pay_to)) return 'settlement recipient differs from what was paid';
  if (x.amount !== s.amount) return 'settlement amount differs from what was paid';
  if (!sameAddr(x.payer, s.payer)) return 'settlement payer is not this buyer';
  if (x.nonce.toLowerCase() !== s.nonce.toLowerCase()) return 'settlement nonce differs from the signed authorization';
  if (x.input_sha256 !== undefined && x.input_sha256 !== proof.input_sha256)
    return 'input_sha256 differs from the quoted input';
  if (x.purchase_id !== undefined && x.purchase_id !== proof.purchase_id)
    return 'purchase id differs from the quoted purchase';
  if (x.resource !== undefined && !manyResources(report) && report.resources[0]?.resource !== x.resource)
    return 'report is for another resource';
  return undefined;
}

export function verifyPaidReport(input: VerifyInput, evidenceKeyHex: string): VerifyResult {
  const decoded = PaidResponse.decode(input.response);
  if (isLeft(decoded))
    return fail('response is not a paid report (PaidReportResponse, IngestionGateResponse or RevalidationResponse)');
  const body = decoded.right;
  const parts = signedParts(body, evidenceKeyHex);
  if (typeof parts === 'string') return fail(parts);
  const { evidence, proof } = parts;
  const report = body.report;
  const problem =
    agreementProblem(body, evidence, proof) ??
    // The report's own digest is checked first (above), so a changed report is reported as such.
    checkpointsOfReportFail(body, evidenceKeyHex) ??
    (report.sku === GATE_SKU ? gateQuestionProblem(report, proof) : undefined) ??
    settlementFormProblem(body.payment_settlement, proof.settlement) ??
    // null: paid on the first request, before any offer (docs/wire.md, "Rate limits"); the proof binds the terms.
    (input.offerReceipt !== undefined && input.offerReceipt !== null
      ? offerReceiptProblem(input, proof, report, evidenceKeyHex)
      : undefined) ??
    (input.binding ? bindingProblem(input.binding, proof) : undefined) ??
    (input.expected ? expectedProblem(input.expected, proof, report) : undefined);
  if (problem !== undefined) return fail(problem);
  const s = proof.settlement;
  return {
    ok: true,
    purchase_id: proof.purchase_id,
    transaction: s.transaction,
    amount: s.amount,
    payer: s.payer,
    classifications: report.resources.map((r) => ({
      resource: r.resource,
      classification: r.classification,
      decision: decisionOf(r),
    })),
    purpose: report.purpose,
    signals: signalsOfReport(report.resources),
  };
}

/** Verifies a SavedReport (the CLI's `verify`). */
export function verifySavedReport(saved: unknown, evidenceKeyHex: string, bindingKey?: string): VerifyResult {
  if (typeof saved !== 'object' || saved === null) return fail('not a saved report');
  const s = saved as Partial<SavedReport>;
  if (s.format !== SAVED_REPORT_FORMAT) {
    // A bare PaidReportResponse is accepted too (no offer receipt: binding checked by form only).
    return verifyPaidReport({ response: saved, ...(bindingKey !== undefined ? { bindingKey } : {}) }, evidenceKeyHex);
  }
  if (!s.binding || s.offer_receipt === undefined) return fail('saved report lacks its binding or offer receipt');
  return verifyPaidReport(
    {
      response: s.response,
      offerReceipt: s.offer_receipt,
      binding: s.binding,
      ...(bindingKey !== undefined ? { bindingKey } : {}),
    },
    evidenceKeyHex,
  );
}
