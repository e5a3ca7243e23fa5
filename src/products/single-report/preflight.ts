import { Refusal } from '@rights-preflight/wire/refusal.js';
import { GATEWAY_VERSION, SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import type { UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { NONCE_PREFIX } from '@rights-preflight/wire/contract/offer.js';
import { SINGLE_REPORT_PRICE, singleReportPrice } from '@rights-preflight/wire/pricing/prices.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import type { Admit } from '../../money-path/paid-admission.js';
import { singleReportProduct } from './product.js';
import { REPORT_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import { quote, type QuoteDeps } from './quote.js';
import { redeem } from '../../money-path/redeem.js';
import type { Redemption } from '../../money-path/redemption.js';
import type { ResumeDeps } from '../../money-path/resume.js';
import { loadPurchase } from '../../money-path/purchase-stream.js';
import { keySha256, requireServiceRequestKey } from '../../money-path/request-key.js';
import { paymentTermsOnWire } from '../../money-path/payment-terms.js';

// POST /v1/rights/preflight (spec §4): the single report sold in one round trip, keyed by the buyer's
// X-Service-Request instead of a claim. It is the quote flow's application services end to end:
//   quote(key as Idempotency-Key, claim = key)  → same key + same input = same purchase stream, no re-fetch
//   unavailable                                  → 200 available:false, charge_micro "0", nothing stored
//   available                                    → redeem(binding key = X-Service-Request): 402 offer,
//                                                  or the paid result for a bound PAYMENT-SIGNATURE
// An empty POST never reaches this far: it is discovery only (preflightDiscovery).

export type PreflightDeps = ResumeDeps & QuoteDeps;

/** A preflight comes to a redemption, or to the quote's answer that nothing is available (no fee). */
export type PreflightOutcome = Redemption | { kind: 'unavailable'; body: UnavailableQuote };

export async function preflight(
  deps: PreflightDeps,
  call: {
    body: PreflightRequest;
    serviceRequest: string | undefined;
    paymentSignature: string | undefined;
    /** Paid or free work (money-path/paid-admission.ts), decided before anything is fetched. */
    admit?: Admit;
  },
): Promise<PreflightOutcome> {
  const key = requireServiceRequestKey(call.serviceRequest);
  if (call.admit) {
    const input = singleReportProduct.normalize(call.body, deps.coveredOrigins);
    await call.admit({
      resource: input.resource,
      key,
      inputSha256: inputSha256(input),
      priceMicro: singleReportPrice(input.tier),
      maxTotalMicro: call.body.max_total_micro,
    });
  }
  const quoted = await quote(deps, call.body, key, { claimIsKey: true });
  if (!quoted.available) return { kind: 'unavailable', body: quoted };
  const loaded = await loadPurchase(deps.store, quoted.purchase_id);
  // Same id but not key-bound: a quote made with this value as its Idempotency-Key. Safe to detect
  // (the stored digest says who the credential is) and refused, so the two flows never share a nonce.
  if (loaded.quoted && loaded.quoted.claim_sha256 !== keySha256(key)) {
    throw new Refusal(
      'SERVICE_REQUEST_KEY_REUSED',
      'this X-Service-Request value was already used as an Idempotency-Key for a quote; ' +
        'use a fresh private key (nothing was charged)',
    );
  }
  return redeem(
    deps,
    {
      purchaseId: quoted.purchase_id,
      binding: { key, source: 'x-service-request' },
      paymentSignature: call.paymentSignature,
    },
    loaded,
  );
}

/** Discovery: what to send, the headers, the price and the binding rule. Evaluates and stores nothing. */
export function preflightDiscovery(deps: Pick<PreflightDeps, 'terms'>): PreflightDiscovery {
  return {
    version: GATEWAY_VERSION,
    discovery: true,
    sku: SINGLE_REPORT_SKU,
    endpoint: '/v1/rights/preflight',
    method: 'POST',
    request_schema_url: '/v1/rights/preflight',
    headers: [
      { name: 'Content-Type', required: true, description: 'application/json' },
      {
        name: 'X-Service-Request',
        required: true,
        description:
          'your private random retry key (32-128 chars [A-Za-z0-9_-]); ' +
          'the same key and body always reach the same purchase; never share or log it',
      },
      {
        name: 'PAYMENT-SIGNATURE',
        required: false,
        description:
          'on the second call only: base64 x402 v2 PaymentPayload (exact, EIP-3009) ' +
          'whose nonce is the bound nonce of the 402 offer',
      },
    ],
    purposes: [...REPORT_PURPOSES],
    prices_micro: { fresh: SINGLE_REPORT_PRICE.fresh.toString(), deep: SINGLE_REPORT_PRICE.deep.toString() },
    payment: paymentTermsOnWire(deps.terms),
    request_binding: {
      extension: 'service-request-binding',
      version: 'service-request-v1',
      nonce_prefix: NONCE_PREFIX,
      nonce_rule:
        `nonce = ${NONCE_PREFIX} + first 48 hex of ` +
        "sha256(JCS({version:'service-request-v1', resource, key: X-Service-Request, input_sha256}))",
    },
    steps: [
      'POST the request body with X-Service-Request: 200 available:false (no fee) or 402 with PAYMENT-REQUIRED',
      'check price, network, asset, recipient and the bound nonce in PAYMENT-REQUIRED; stop on any mismatch',
      'sign exactly that offer and nonce; persist the authorization encrypted before sending it',
      'POST the same body with the same X-Service-Request and PAYMENT-SIGNATURE: ' +
        '200 with report, evidence, payment_settlement, delivery_proof',
      'on an ambiguous answer retry the same request with the same PAYMENT-SIGNATURE; never sign a replacement',
    ],
    charge_micro: '0',
    legal_clearance: false,
  };
}
