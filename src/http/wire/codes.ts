// Error codes of the money path and their HTTP status (body shape: src/http/errors.ts).
// Payment refusals raised by src/payment/verify-authorization.ts keep their own codes and travel as 402.
export const MONEY_CODES = {
  REPORT_NOT_FOUND: 404, // unknown id, missing or wrong X-Service-Claim: one indistinguishable answer
  PAYMENT_REQUIRED: 402, // no PAYMENT-SIGNATURE yet; the offer is in PAYMENT-REQUIRED
  PAYMENT_SIGNATURE_MALFORMED: 400, // header is not base64 JSON of an x402 v2 PaymentPayload
  PAYMENT_REJECTED: 402, // the facilitator's verify refused it (balance, simulation…); details.reason has its code
  OFFER_EXPIRED: 410, // quote/offer lifetime over and no payment was checkpointed: quote again
  PAYMENT_CONFLICT: 409, // a different authorization is already checkpointed for this purchase
  PURCHASE_IN_PROGRESS: 409, // settlement of the checkpointed authorization is still running: retry the same request
  PURCHASE_HELD: 409, // Held or LockStuck: on the operator investigation queue, nothing more is charged
  SETTLEMENT_FAILED: 402, // the chain definitively refused the checkpointed authorization; held for review
  PRICE_EXCEEDS_BUDGET: 422,
  INVALID_IDEMPOTENCY_KEY: 400,
} as const;
export type MoneyCode = keyof typeof MONEY_CODES;
