import { Refusal } from '@rights-preflight/wire/refusal.js';

// Why decide refuses a command. Codes are stable (operators and routes match on them); src/http's one
// status table says how each is answered (a refusal is transport-neutral: packages/wire/src/refusal.ts).
export const REFUSAL_CODES = [
  'ALREADY_QUOTED', // Quote on an existing stream
  'PRICE_EXCEEDS_BUDGET', // price_micro > max_total_micro
  'QUOTE_EXPIRED', // a quote whose expiry is not in the future
  'NOT_QUOTED', // anything but Quote on an empty stream
  'NOT_OFFERED', // checkpoint/settle before the 402 offer
  'OFFER_EXPIRED', // offer or checkpoint after the quote/offer lifetime
  'OFFER_MISMATCH', // an offer that does not ask exactly the quoted price, or outlives the quote
  'AUTHORIZATION_MISMATCH', // checkpoint whose nonce/amount is not the offer's
  'PAYMENT_FROM_NOT_SIGNER', // checkpoint whose payer is not the payer pinned at quote time (sign-in proof)
  'PURCHASE_BOUND_TO_OTHER_PAYER', // an offer asked for by another signed-in payer than the pinned one
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

export class PurchaseRefused extends Refusal {
  override readonly name = 'PurchaseRefused';
  constructor(
    override readonly code: RefusalCode,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, details);
  }
}
