import type { Hex } from 'viem';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { GATEWAY_VERSION } from '@rights-preflight/wire/contract/common.js';
import {
  GATE_PATH,
  GATE_SKU,
  type IngestionGateRequest,
  type IngestionGateUnavailable,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import { assertWithinBudget } from '../../pricing/budget.js';
import { purchaseId, type IngestionGateInput, type PurchaseState } from '../../../streams/purchase/index.js';
import type { Binding } from '../../money-path/offer.js';
import { redeem } from '../../money-path/redeem.js';
import type { Redemption } from '../../money-path/redemption.js';
import { decisionFor } from '@rights-preflight/wire/rsl/vocabulary.js';
import { signQuote } from '../../money-path/signed-quote.js';
import type { ResumeDeps } from '../../money-path/resume.js';
import type { Admit } from '../../money-path/paid-admission.js';
import { loadPurchase, recordQuote } from '../../money-path/purchase-stream.js';
import { keySha256, requireServiceRequestKey } from '../../money-path/request-key.js';
import { checkPaymentIntent } from './intent.js';
import type { NormalizedGate } from './normalize.js';
import { gateEntry, gatePreview } from './report.js';
import { ingestionGateProduct, type GateObserver } from './product.js';
import { verifySiwxHeader } from './siwx.js';
import { unavailability } from '../../rsl/unavailability.js';
import { SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';

// POST /v1/rights/ingestion-gate as an application service. Everything that can be refused without
// the network is refused before anything is fetched or stored, in this order:
//   body rules → URL rule per resource → budget → X-Service-Request → payment intent → sign-in proof
//   → signer = intent payer.
// Then the purchase stream (id from {sku, sha256(key), input_sha256}): first time, observe every
// unique resource and append `Quoted` (payer pinned); then the shared redeem path — `Offered` + 402,
// or the bound payment → checkpoint → settle → deliver. That the asker and the payment's `from` are
// the pinned payer is decide's rule (PURCHASE_BOUND_TO_OTHER_PAYER, PAYMENT_FROM_NOT_SIGNER).

/** A gate call comes to a redemption, or to "no verifiable declaration anywhere" (no fee, nothing stored). */
export type GateOutcome = Redemption | { kind: 'unavailable'; body: IngestionGateUnavailable };

export interface GateDeps extends ResumeDeps, GateObserver {}

export interface GateCall {
  body: IngestionGateRequest;
  serviceRequest: string | undefined;
  paymentIntent: string | undefined;
  siwx: string | undefined;
  paymentSignature: string | undefined;
  /** Paid or free work (money-path/paid-admission.ts), decided before anything is fetched. */
  admit?: Admit;
}

export const gateUrlOf = (deps: Pick<GateDeps, 'baseUrl'>) => deps.baseUrl + GATE_PATH;

export async function ingestionGate(deps: GateDeps, call: GateCall): Promise<GateOutcome> {
  const gateUrl = gateUrlOf(deps);
  const n = ingestionGateProduct.normalize(call.body, deps.coveredOrigins);
  assertWithinBudget(n.price_micro, n.max_total_micro);
  const key = requireServiceRequestKey(call.serviceRequest);
  const { payer } = checkPaymentIntent(call.paymentIntent, {
    gateUrl,
    inputSha256: n.input_sha256,
    network: deps.terms.network,
  });
  await call.admit?.({
    resource: gateUrl,
    key,
    inputSha256: n.input_sha256,
    priceMicro: n.price_micro,
    maxTotalMicro: n.max_total_micro,
  });
  const proof = await verifySiwxHeader(
    call.siwx,
    { gateUrl, key, inputSha256: n.input_sha256, network: deps.terms.network },
    deps.now(),
  );
  // The statement a buyer must sign travels with every sign-in refusal: a client can be written from the answers alone.
  if (!proof.ok) throw new Refusal(proof.code, proof.message, { reason: proof.reason, statement: SIWX_STATEMENT });
  if (proof.signer !== payer) {
    throw new Refusal(
      'SIWX_SIGNER_NOT_PAYER',
      "the sign-in proof is signed by another address than the payment intent's payer; nothing was stored or charged",
    );
  }

  const id = purchaseId({ sku: GATE_SKU, key_sha256: keySha256(key), input_sha256: n.input_sha256 });
  let state = await loadPurchase(deps.store, id);
  if (!state.quoted) {
    const quoted = await quoteGate(deps, id, n, key, payer, gateUrl);
    if ('unavailable' in quoted) return { kind: 'unavailable', body: quoted.unavailable };
    state = quoted.state;
  }
  const binding: Binding = { key, source: 'x-service-request' };
  return redeem(deps, { purchaseId: id, binding, paymentSignature: call.paymentSignature, payer }, state);
}

async function quoteGate(
  deps: GateDeps,
  id: string,
  n: NormalizedGate,
  key: string,
  payer: Hex,
  gateUrl: string,
): Promise<{ state: PurchaseState } | { unavailable: IngestionGateUnavailable }> {
  const b = n.body;
  const reading = await ingestionGateProduct.observe(deps, n);
  const { readings } = reading;
  if (!readings.some((r) => r.declaration_found)) {
    // As for a quote (spec §7): no verifiable declaration anywhere → no report, no fee, nothing stored;
    // FETCH_FAILED when a resource could not be looked at.
    const failures = readings.flatMap((r) => {
      const u = unavailability(r);
      return u?.reason === 'FETCH_FAILED' ? u.details.failures : [];
    });
    return {
      unavailable: {
        version: GATEWAY_VERSION,
        available: false,
        ...(failures.length
          ? { reason: 'FETCH_FAILED' as const, details: { failures } }
          : { reason: 'NO_VERIFIABLE_DECLARATION' as const }),
        input_sha256: n.input_sha256,
        resources: readings.map((r) => ({
          resource: r.resource,
          classification: 'NO_MACHINE_READABLE_DECLARATION' as const,
        })),
        charge_micro: '0',
        legal_clearance: false,
      },
    };
  }
  const entries = readings.map((r) => gateEntry(r, b.purpose));
  const combined = gatePreview(entries);
  const price = n.price_micro.toString();
  const input: IngestionGateInput = {
    sku: GATE_SKU,
    resource: gateUrl,
    purpose: b.purpose,
    tier: b.tier,
    user_class: b.user_class,
    geo: b.geo,
    freshness_seconds: b.freshness_seconds,
    resources: b.resources,
  };
  const { signedQuote, expiresAt } = signQuote(deps, n.price_micro, {
    purchase_id: id,
    sku: GATE_SKU,
    resource: gateUrl,
    resources: b.resources,
    purpose: b.purpose,
    tier: b.tier,
    user_class: b.user_class,
    geo: b.geo,
    freshness_seconds: b.freshness_seconds,
    input_sha256: n.input_sha256,
    classifications: entries.map((e) => ({ resource: e.resource, classification: e.classification })),
    payer,
  });
  // An identical concurrent request may quote first: this one then continues on its stream (an offer to
  // another signed-in payer is refused by decide).
  const state = await recordQuote(
    deps,
    {
      purchase_id: id,
      sku: GATE_SKU,
      input,
      input_sha256: n.input_sha256,
      max_total_micro: n.max_total_micro,
      price_micro: price,
      decision_preview: { purpose: b.purpose, classification: combined, decision: decisionFor(combined) },
      signed_quote: signedQuote,
      expires_at: expiresAt,
      claim_sha256: keySha256(key), // the key is the credential (also valid as X-Service-Claim at the report URL)
      reading,
      payer,
    },
    { retryOnConflict: 1 },
  );
  return { state };
}
