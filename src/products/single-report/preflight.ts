import { GATEWAY_VERSION, SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import type { UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { SINGLE_REPORT_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { REPORT_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import {
  NONCE_PREFIX,
  requireServiceRequestKey,
  paymentTermsOnWire,
  sell,
  type KeyBound,
  type PaymentTerms,
  type SaleDeps,
  type SaleOutcome,
} from '../../money-path/sale.js';
import { singleReportProduct, type SingleReportObserver } from './product.js';

// POST /v1/rights/preflight (spec §4): the single report sold in one round trip, keyed by the buyer's
// X-Service-Request instead of a claim: the sale end to end (../../money-path/sale.ts).
//   same key + same input  → the same purchase stream, no re-fetch
//   unavailable            → 200 available:false, charge_micro "0", nothing stored
//   available              → 402 offer, or the paid result for a bound PAYMENT-SIGNATURE
// An empty POST never reaches this far: it is discovery only (preflightDiscovery).

type PreflightDeps = SaleDeps<SingleReportObserver>;

/** A preflight comes to a redemption, or to the quote's answer that nothing is available (no fee). */
type PreflightOutcome = SaleOutcome<UnavailableQuote>;

export async function preflight(
  deps: PreflightDeps,
  body: PreflightRequest,
  call: KeyBound,
): Promise<PreflightOutcome> {
  // The key is this route's credential: asked for before the body is looked at.
  requireServiceRequestKey(call.serviceRequest);
  return sell(deps, singleReportProduct, { ...call, request: body });
}

/** Discovery: what to send, the headers, the price and the binding rule. Evaluates and stores nothing. */
export function preflightDiscovery(deps: { terms: PaymentTerms }): PreflightDiscovery {
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
