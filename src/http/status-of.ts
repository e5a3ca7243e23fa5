import { RESOURCE_URL_ERROR_CODES } from '@rights-preflight/wire/rsl/resource-url.js';
import { REFUND_REFUSAL_CODES } from '../../streams/refund/index.js';
import { PurchaseRefused, type RefusalCode } from '../../streams/purchase/index.js';
import type { Refusal } from '@rights-preflight/wire/refusal.js';

// The one table of HTTP statuses: every refusal code the service can answer, and its status; a product's
// own codes are in its listing (src/products/*/listing.ts) and join this table in the app the service
// builds (src/service/public-http.ts). Domain code throws transport-neutral refusals (the leaf's
// refusal.ts); only src/http reads the table (the error middleware, and the 402 of an offer). Codes and
// meanings: docs/wire.md §6.

const RESOURCE_URL_STATUS = Object.fromEntries(RESOURCE_URL_ERROR_CODES.map((c) => [c, 422]));
const REFUND_STATUS = Object.fromEntries(REFUND_REFUSAL_CODES.map((c) => [c, /INVALID|EXCEEDS/.test(c) ? 422 : 409]));

export const STATUS_OF: Readonly<Record<string, number>> = {
  // The request itself (src/http).
  NOT_FOUND: 404,
  MALFORMED_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  BODY_TOO_LARGE: 413,
  UNKNOWN_FIELD: 400,
  INVALID_REQUEST: 400,
  VALIDATION_FAILED: 422,
  INVALID_IDEMPOTENCY_KEY: 400,
  METHOD_NOT_ALLOWED: 405,
  METHOD_NOT_IMPLEMENTED: 501,
  RATE_LIMITED: 429, // per client address and route: inspect, quote, preflight, gate; Retry-After says when
  INSPECT_BUSY: 503, // every inspection worker busy and the queue full; Retry-After: 1
  ...RESOURCE_URL_STATUS,
  // The money path.
  REPORT_NOT_FOUND: 404, // unknown id, missing or wrong X-Service-Claim: one indistinguishable answer
  PAYMENT_REQUIRED: 402, // no PAYMENT-SIGNATURE yet; the offer is in PAYMENT-REQUIRED
  PAYMENT_SIGNATURE_MALFORMED: 400, // not plain base64 JSON of an x402 v2 PaymentPayload
  PAYMENT_REJECTED: 402, // the facilitator's verify refused it; details.reason has its code
  PAYMENT_WINDOW_EXPIRED: 402,
  RELAYER_UNDERFUNDED: 503, // the relayer cannot pay the next RELAYER_MIN_SETTLEMENTS settlements' gas; Retry-After
  OFFER_EXPIRED: 410, // quote/offer lifetime over and no payment was checkpointed: quote again
  PAYMENT_CONFLICT: 409, // a different authorization is already checkpointed for this purchase
  PURCHASE_IN_PROGRESS: 409, // settlement of the checkpointed authorization is still running
  PURCHASE_HELD: 409, // Held or LockStuck: on the operator investigation queue
  REPORT_NOT_DELIVERED: 409, // an ingestion gate's report URL before delivery: it is paid at the gate
  SETTLEMENT_FAILED: 402, // the chain definitively refused the checkpointed authorization; held
  PRICE_EXCEEDS_BUDGET: 422,
  SERVICE_REQUEST_REQUIRED: 428,
  SERVICE_REQUEST_INVALID: 400,
  SERVICE_REQUEST_KEY_REUSED: 409,
  // A payer pinned at quote time (decide's; the products' own codes are in their listings).
  PURCHASE_BOUND_TO_OTHER_PAYER: 409,
  PAYMENT_FROM_NOT_SIGNER: 402,
  // Refund requests (streams/refund/decide.ts: a message or amount that is wrong 422, a state 409).
  REFUND_NOT_FOUND: 404,
  ...REFUND_STATUS,
};

/**
 * The purchase stream's refusals (streams/purchase/refusals.ts) in the wire's words. One reaches HTTP
 * when `decide` refuses a command the money path issued, mostly because another request or the
 * recovery worker moved the purchase first. `internal` rows are invariants only our own code can break
 * (a malformed offer or delivery, an operator command): a 500, never shown to a buyer as their fault.
 */
export type WireRefusal = { code: string; message: string } | 'internal';

const inProgress = (message: string): WireRefusal => ({ code: 'PURCHASE_IN_PROGRESS', message });

export const PURCHASE_REFUSAL_ON_WIRE: Readonly<Record<RefusalCode, WireRefusal>> = {
  ALREADY_QUOTED: inProgress('this purchase was just quoted by another request; retry the same request'),
  PRICE_EXCEEDS_BUDGET: { code: 'PRICE_EXCEEDS_BUDGET', message: 'the price exceeds max_total_micro' },
  QUOTE_EXPIRED: { code: 'OFFER_EXPIRED', message: 'the quote expired; request a new quote (nothing was charged)' },
  NOT_QUOTED: { code: 'REPORT_NOT_FOUND', message: 'no report for this id and claim' },
  NOT_OFFERED: inProgress('the offer is not recorded yet; retry the same request'),
  OFFER_EXPIRED: { code: 'OFFER_EXPIRED', message: 'the offer expired; request a new quote (nothing was charged)' },
  OFFER_MISMATCH: 'internal',
  AUTHORIZATION_MISMATCH: {
    code: 'PAYMENT_REJECTED',
    message: 'the authorization does not match the offer (nothing was charged)',
  },
  PAYMENT_FROM_NOT_SIGNER: {
    code: 'PAYMENT_FROM_NOT_SIGNER',
    message: "the authorization's from is not the signed-in payer (nothing was charged)",
  },
  PURCHASE_BOUND_TO_OTHER_PAYER: {
    code: 'PURCHASE_BOUND_TO_OTHER_PAYER',
    message: 'this X-Service-Request and input already belong to a purchase signed in by another payer; use a new key',
  },
  PAYMENT_WINDOW_EXPIRED: {
    code: 'PAYMENT_WINDOW_EXPIRED',
    message: 'the authorization is past validBefore; sign a new one (nothing was charged)',
  },
  PURCHASE_ALREADY_PAYING: {
    code: 'PAYMENT_CONFLICT',
    message:
      'another payment authorization is already recorded for this purchase; ' +
      'retry with that one (nothing was charged for this one)',
  },
  NOT_CHECKPOINTED: inProgress('the payment is not recorded yet; retry the same request'),
  ALREADY_SETTLED: inProgress('this purchase is already settled; retry the same request to receive the report'),
  NOT_SETTLED: inProgress('settlement is still running; retry the same request'),
  DELIVERY_MISMATCH: 'internal',
  ALREADY_DELIVERED: inProgress('this purchase was just delivered; retry the same request to receive the report'),
  PURCHASE_LOCKED: {
    code: 'PURCHASE_HELD',
    message: 'this purchase is held for operator review; nothing more is charged',
  },
  NOT_LOCKED: 'internal',
  OPERATOR_TARGET_INVALID: 'internal',
  PURCHASE_CLOSED: { code: 'OFFER_EXPIRED', message: 'this purchase is closed; request a new quote' },
  INVALID_EVENT: 'internal',
};

export interface PresentedRefusal {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
  headers: Record<string, string>;
}

/** How HTTP answers a refusal; undefined for one that is an internal fault (answered 500, and logged). */
export function presentRefusal(
  err: Refusal,
  statuses: Readonly<Record<string, number>> = STATUS_OF,
): PresentedRefusal | undefined {
  let { code, message, details } = err;
  let retryAfter = err.retryAfter;
  if (err instanceof PurchaseRefused) {
    const wire = PURCHASE_REFUSAL_ON_WIRE[err.code];
    if (wire === 'internal') return undefined;
    ({ code, message } = wire);
    details = { refusal: err.code };
    if (code === 'PURCHASE_IN_PROGRESS') retryAfter ??= 2;
  }
  const status = statuses[code];
  if (status === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  // The rest of an oversized body is never read: the connection cannot be reused.
  if (code === 'BODY_TOO_LARGE') headers.Connection = 'close';
  return { status, code, message, details, headers };
}
