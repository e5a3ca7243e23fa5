// The refusal codes of the pre-checkpoint payment checks (src/payment/verify-authorization.ts), in
// the order the checks run. They are part of the wire contract (docs/wire.md §refusals): a 402
// carries the code in `error.code` and in PAYMENT-REQUIRED `error`. Never rename one; add new ones.
// Every refusal means: nothing was stored and nothing was charged.

export const AUTHORIZATION_REFUSALS = {
  X402_VERSION_UNSUPPORTED: 'only x402 version 2 payments are accepted',
  PAYMENT_PAYLOAD_INVALID: 'the payment is not a well-formed exact/EIP-3009 PaymentPayload',
  SCHEME_MISMATCH: 'only the exact scheme is accepted',
  NETWORK_MISMATCH: 'the payment is for another network than the offer',
  ASSET_MISMATCH: 'the payment is for another asset than the offer',
  RECIPIENT_MISMATCH: 'the payment is to another recipient than the offer',
  AMOUNT_MISMATCH: 'the accepted amount differs from the offer',
  AMOUNT_BELOW_PRICE: 'the authorized amount is below the offered price',
  AMOUNT_ABOVE_PRICE: 'the authorized amount is above the offered price (the exact price is required)',
  AMOUNT_ABOVE_BUDGET: "the authorized amount is above the buyer's max_total_micro",
  ACCEPTED_REQUIREMENTS_MISMATCH:
    'the accepted requirements are not the offered ones (maxTimeoutSeconds or EIP-712 domain)',
  PAYMENT_NOT_YET_VALID: 'the authorization is not valid yet (validAfter is in the future)',
  PAYMENT_WINDOW_EXPIRED: 'the authorization window has passed or closes too soon to settle (validBefore)',
  PAYMENT_WINDOW_TOO_SHORT:
    'validBefore leaves less than the settlement window the relayer needs to settle it (settlement_window_seconds)',
  PAYMENT_WINDOW_TOO_LONG: 'validBefore is further ahead than the offer allows (maxTimeoutSeconds)',
  NONCE_NOT_BOUND: 'the nonce is not the bound nonce of this offer',
  NONCE_BOUND_TO_OTHER_REQUEST: 'the nonce is bound to another request or report',
  SIGNATURE_INVALID: 'the EIP-712 signature is not by the payer (from)',
} as const;

export type AuthorizationRefusalCode = keyof typeof AUTHORIZATION_REFUSALS;
