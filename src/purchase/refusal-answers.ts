import { ApiError } from '../http/errors.js';
import { MONEY_CODES } from '../http/wire/codes.js';
import { PurchaseRefused, type RefusalCode } from '../../streams/purchase/index.js';

// The purchase stream's refusals (streams/purchase/refusals.ts) as HTTP answers, in one table. A
// refusal reaches here when `decide` refuses a command the money path issued, mostly because another
// request or the recovery worker moved the purchase first. Each maps to a code the wire contract
// (docs/wire.md §6) already has; `details.refusal` keeps the stream's own code. `internal` rows are
// invariants only our own code can break (a malformed offer or delivery, an operator command): those
// stay a 500 and are logged, never shown to a buyer as their fault.

export type RefusalAnswer = { status: number; code: string; message: string } | 'internal';

const conflict = (message: string): RefusalAnswer => ({ status: MONEY_CODES.PURCHASE_IN_PROGRESS, code: 'PURCHASE_IN_PROGRESS', message });

export const REFUSAL_ANSWERS: Record<RefusalCode, RefusalAnswer> = {
  ALREADY_QUOTED: conflict('this purchase was just quoted by another request; retry the same request'),
  PRICE_EXCEEDS_BUDGET: { status: MONEY_CODES.PRICE_EXCEEDS_BUDGET, code: 'PRICE_EXCEEDS_BUDGET', message: 'the price exceeds max_total_micro' },
  QUOTE_EXPIRED: { status: MONEY_CODES.OFFER_EXPIRED, code: 'OFFER_EXPIRED', message: 'the quote expired; request a new quote (nothing was charged)' },
  NOT_QUOTED: { status: MONEY_CODES.REPORT_NOT_FOUND, code: 'REPORT_NOT_FOUND', message: 'no report for this id and claim' },
  NOT_OFFERED: conflict('the offer is not recorded yet; retry the same request'),
  OFFER_EXPIRED: { status: MONEY_CODES.OFFER_EXPIRED, code: 'OFFER_EXPIRED', message: 'the offer expired; request a new quote (nothing was charged)' },
  OFFER_MISMATCH: 'internal',
  AUTHORIZATION_MISMATCH: { status: MONEY_CODES.PAYMENT_REJECTED, code: 'PAYMENT_REJECTED', message: 'the authorization does not match the offer (nothing was charged)' },
  PAYMENT_WINDOW_EXPIRED: { status: 402, code: 'PAYMENT_WINDOW_EXPIRED', message: 'the authorization is past validBefore; sign a new one (nothing was charged)' },
  PURCHASE_ALREADY_PAYING: { status: MONEY_CODES.PAYMENT_CONFLICT, code: 'PAYMENT_CONFLICT', message: 'another payment authorization is already recorded for this purchase; retry with that one (nothing was charged for this one)' },
  NOT_CHECKPOINTED: conflict('the payment is not recorded yet; retry the same request'),
  ALREADY_SETTLED: conflict('this purchase is already settled; retry the same request to receive the report'),
  NOT_SETTLED: conflict('settlement is still running; retry the same request'),
  DELIVERY_MISMATCH: 'internal',
  ALREADY_DELIVERED: conflict('this purchase was just delivered; retry the same request to receive the report'),
  PURCHASE_LOCKED: { status: MONEY_CODES.PURCHASE_HELD, code: 'PURCHASE_HELD', message: 'this purchase is held for operator review; nothing more is charged' },
  NOT_LOCKED: 'internal',
  OPERATOR_TARGET_INVALID: 'internal',
  PURCHASE_CLOSED: { status: MONEY_CODES.OFFER_EXPIRED, code: 'OFFER_EXPIRED', message: 'this purchase is closed; request a new quote' },
  INVALID_EVENT: 'internal',
};

/** The HTTP answer for a refusal (an ApiError), or the refusal itself when it is an internal invariant. */
export function refusalAnswer(err: PurchaseRefused): ApiError | PurchaseRefused {
  const a = REFUSAL_ANSWERS[err.code];
  if (a === 'internal') return err;
  const headers: Record<string, string> = a.code === 'PURCHASE_IN_PROGRESS' ? { 'Retry-After': '2' } : {};
  return new ApiError(a.status, a.code, a.message, { refusal: err.code }, headers);
}
