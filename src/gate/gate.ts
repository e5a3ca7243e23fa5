import { getAddress, isAddress, type Hex } from 'viem';
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { ApiError } from '../http/errors.js';
import { GATEWAY_VERSION } from '../http/wire/common.js';
import { GATE_PATH, GATE_SKU, type IngestionGateRequest, type IngestionGateUnavailable } from '../http/wire/ingestion-gate.js';
import type { GatePurpose } from '../rsl/purposes.js';
import type { ObserveContext } from '../rsl/observe.js';
import type { ResourceReading } from '../rsl/reading.js';
import { assertWithinBudget } from '../pricing/budget.js';
import { WrongExpectedRevision } from '../store/port.js';
import { purchaseId } from '../../streams/purchase/ids.js';
import { ensureOffered, offerAnswer, type Binding, type HttpAnswer } from '../purchase/offer.js';
import { redeem } from '../purchase/redeem.js';
import { decisionFor } from '../rsl/vocabulary.js';
import { signQuote } from '../purchase/signed-quote.js';
import type { ResumeDeps } from '../purchase/resume.js';
import { execute, loadPurchase, type Loaded } from '../purchase/stream.js';
import { keySha256, requireServiceRequestKey } from '../purchase/request-key.js';
import { checkPaymentIntent } from './intent.js';
import { normalizeGateRequest, type NormalizedGate } from './normalize.js';
import { gateEntry, type GateQuotedInput, type GateReadings } from './report.js';
import { verifySiwxHeader } from './siwx.js';
import { SIWX_STATEMENT } from './siwx-challenge.js';

// POST /v1/rights/ingestion-gate as an application service. Everything that can be refused without
// the network is refused before anything is fetched or stored, in this order:
//   body rules → URL rule per resource → budget → X-Service-Request → payment intent → sign-in proof
//   → signer = intent payer.
// Then the purchase stream (id from {sku, sha256(key), input_sha256}): first time, observe every
// unique resource and append `Quoted` (payer pinned); then the shared redeem path — `Offered` + 402,
// or the bound payment (its `from` must be the signed-in payer) → checkpoint → settle → deliver.

export interface GateDeps extends ResumeDeps {
  observeGate(resource: string, purposes: readonly GatePurpose[], ctx: ObserveContext): Promise<ResourceReading>;
}

export interface GateCall {
  body: IngestionGateRequest;
  serviceRequest: string | undefined;
  paymentIntent: string | undefined;
  siwx: string | undefined;
  paymentSignature: string | undefined;
}

export const gateUrlOf = (deps: Pick<GateDeps, 'baseUrl'>) => deps.baseUrl + GATE_PATH;

export async function ingestionGate(deps: GateDeps, call: GateCall): Promise<HttpAnswer> {
  const gateUrl = gateUrlOf(deps);
  const n = normalizeGateRequest(call.body, deps.coveredOrigins);
  assertWithinBudget(n.price_micro, n.max_total_micro);
  const key = requireServiceRequestKey(call.serviceRequest);
  const { payer } = checkPaymentIntent(call.paymentIntent, { gateUrl, inputSha256: n.input_sha256, network: deps.terms.network });
  const proof = await verifySiwxHeader(call.siwx, { gateUrl, key, inputSha256: n.input_sha256, network: deps.terms.network }, deps.now());
  // The statement a buyer must sign travels with every sign-in refusal: a client can be written from the answers alone.
  if (!proof.ok) throw new ApiError(proof.status, proof.code, proof.message, { reason: proof.reason, statement: SIWX_STATEMENT });
  if (proof.signer !== payer) {
    throw new ApiError(403, 'SIWX_SIGNER_NOT_PAYER', 'the sign-in proof is signed by another address than the payment intent\'s payer; nothing was stored or charged');
  }

  const id = purchaseId({ sku: GATE_SKU, key_sha256: keySha256(key), input_sha256: n.input_sha256 });
  let loaded = await loadPurchase(deps.store, id);
  if (!loaded.quoted) {
    const quoted = await quoteGate(deps, id, n, key, payer, gateUrl);
    if ('unavailable' in quoted) return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: quoted.unavailable };
    loaded = quoted.loaded;
  } else if (loaded.quoted.payer !== undefined && getAddress(loaded.quoted.payer) !== payer) {
    throw new ApiError(409, 'PURCHASE_BOUND_TO_OTHER_PAYER', 'this X-Service-Request and input already belong to a purchase signed in by another payer; use a new key');
  }

  const binding: Binding = { key, source: 'x-service-request' };
  const from = call.paymentSignature ? paymentFrom(call.paymentSignature) : undefined;
  if (from !== undefined && from !== payer) {
    // Refused before verification: nothing is checkpointed, so nothing can be charged.
    loaded = await ensureOffered(deps, id, loaded, binding);
    return offerAnswer(loaded, 'PAYMENT_FROM_NOT_SIGNER', 'the payment authorization\'s from is not the signed-in payer of the intent; sign the offer with that wallet (nothing was charged)');
  }
  return redeem(deps, { purchaseId: id, binding, paymentSignature: call.paymentSignature }, loaded);
}

/** The authorization's `from`, when the header parses (otherwise redeem refuses it with its own code). */
function paymentFrom(header: string): Hex | undefined {
  try {
    const from = (decodePaymentSignatureHeader(header) as { payload?: { authorization?: { from?: unknown } } }).payload?.authorization?.from;
    return typeof from === 'string' && isAddress(from, { strict: false }) ? getAddress(from) : undefined;
  } catch {
    return undefined;
  }
}

// The gate's one-line preview answers "may I ingest all of this?": a prohibition first, then a license
// demand, then doubts (CONFLICT, UNKNOWN, nothing declared); PERMITTED only when every entry is.
const RESTRICTIVENESS = ['PROHIBITED_BY_OBSERVED_DECLARATION', 'LICENSE_REQUIRED', 'CONFLICT', 'UNKNOWN', 'NO_MACHINE_READABLE_DECLARATION', 'PERMITTED_BY_OBSERVED_DECLARATION'] as const;

async function quoteGate(deps: GateDeps, id: string, n: NormalizedGate, key: string, payer: Hex, gateUrl: string): Promise<{ loaded: Loaded } | { unavailable: IngestionGateUnavailable }> {
  const b = n.body;
  const readings = await Promise.all(b.resources.map((r) => deps.observeGate(r, [b.purpose], { userClass: b.user_class, geo: b.geo, freshnessSeconds: b.freshness_seconds })));
  if (!readings.some((r) => r.declaration_found)) {
    // As for a quote (spec §7): no verifiable declaration anywhere → no report, no fee, nothing stored.
    return {
      unavailable: {
        version: GATEWAY_VERSION,
        available: false,
        reason: 'NO_VERIFIABLE_DECLARATION',
        input_sha256: n.input_sha256,
        resources: readings.map((r) => ({ resource: r.resource, classification: 'NO_MACHINE_READABLE_DECLARATION' as const })),
        charge_micro: '0',
        legal_clearance: false,
      },
    };
  }
  const entries = readings.map((r) => gateEntry(r, b.purpose));
  const combined = RESTRICTIVENESS.find((c) => entries.some((e) => e.classification === c)) ?? 'UNKNOWN';
  const price = n.price_micro.toString();
  const input: GateQuotedInput = { sku: GATE_SKU, resource: gateUrl, purpose: b.purpose, tier: b.tier, user_class: b.user_class, geo: b.geo, freshness_seconds: b.freshness_seconds, resources: b.resources };
  const reading: GateReadings = { version: 'rsl-gate-readings-v1', readings };
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
  try {
    const loaded = await execute(deps, id, { state: undefined, revision: 'no_stream' }, {
      type: 'Quote',
      data: {
        purchase_id: id,
        sku: GATE_SKU,
        input: input as unknown as { sku: string; resource: string; purpose: string; tier: string; user_class: string },
        input_sha256: n.input_sha256,
        max_total_micro: n.max_total_micro,
        price_micro: price,
        decision_preview: { purpose: b.purpose, classification: combined, decision: decisionFor(combined) },
        signed_quote: signedQuote,
        expires_at: expiresAt,
        claim_sha256: keySha256(key), // the key is the credential (also valid as X-Service-Claim at the report URL)
        reading: reading as unknown as Record<string, unknown>,
        payer,
      },
    });
    return { loaded };
  } catch (err) {
    if (!(err instanceof WrongExpectedRevision)) throw err;
    // An identical concurrent request quoted first: continue on its stream.
    const again = await loadPurchase(deps.store, id);
    if (!again.quoted) throw err;
    if (again.quoted.payer !== undefined && getAddress(again.quoted.payer) !== payer) {
      throw new ApiError(409, 'PURCHASE_BOUND_TO_OTHER_PAYER', 'this X-Service-Request and input already belong to a purchase signed in by another payer; use a new key');
    }
    return { loaded: again };
  }
}
