// Why decide refuses a command. Codes are stable (operators and routes match on them); the money path
// maps the ones a buyer can cause (OFFER_EXPIRED, PURCHASE_ALREADY_PAYING…) to HTTP answers.
export const REFUSAL_CODES = [
  'ALREADY_QUOTED', // Quote on an existing stream
  'PRICE_EXCEEDS_BUDGET', // price_micro > max_total_micro
  'QUOTE_EXPIRED', // a quote whose expiry is not in the future
  'NOT_QUOTED', // anything but Quote on an empty stream
  'NOT_OFFERED', // checkpoint/settle before the 402 offer
  'OFFER_EXPIRED', // offer or checkpoint after the quote/offer lifetime
  'OFFER_MISMATCH', // an offer that does not ask exactly the quoted price, or outlives the quote
  'AUTHORIZATION_MISMATCH', // checkpoint whose nonce/amount/payer is not the offer's
  'PAYMENT_WINDOW_EXPIRED', // checkpoint of an authorization already past validBefore
  'PURCHASE_ALREADY_PAYING', // a different authorization after a checkpoint; an offer after one
  'NOT_CHECKPOINTED', // submission/stuck/hold without a checkpointed authorization
  'ALREADY_SETTLED', // a second, different settlement; a submission after settlement
  'NOT_SETTLED', // delivery before settlement
  'DELIVERY_MISMATCH', // a delivery whose settlement is not the recorded one
  'ALREADY_DELIVERED', // delivering twice
  'PURCHASE_LOCKED', // anything but an operator move on a held or stuck purchase
  'NOT_LOCKED', // an operator move on a purchase that is not held or stuck
  'OPERATOR_TARGET_INVALID', // an operator target that does not fit the purchase's history
  'PURCHASE_CLOSED', // anything on a closed purchase
  'INVALID_EVENT', // command data that would make an event its codec refuses (it would poison the stream)
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export class PurchaseRefused extends Error {
  override readonly name = 'PurchaseRefused';
  constructor(readonly code: RefusalCode, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}
