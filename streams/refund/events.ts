import * as t from 'io-ts';
import { IsoTime, Micro, NonEmpty, Sha256Hex, TxHash, Address } from '@rights-preflight/wire/contract/primitives.js';
import { RefundReason } from '@rights-preflight/wire/contract/refund-reason.js';

export { RefundReason };

// Events of the refund-request stream `refund-<purchase_id>` (spec §3: "a refund request is an
// operator-reviewed record, never an automatic transfer"). The service only ever records: the buyer's
// request, the operator's review, and — if the operator paid a refund by hand — the transaction they
// report. Nothing here moves money. One request per purchase: its stream is named by the purchase id.

/** What the purchase stream showed when the request was filed: the charge in question. */
const ChargeInQuestion = t.type({
  purchase_status: NonEmpty,
  amount_micro: Micro,
  payer: Address,
  /** The settlement transaction, or null while the charge is unresolved (submitted, stuck). */
  transaction: t.union([TxHash, t.null]),
});

const RefundRequestedData = t.type({
  purchase_id: Sha256Hex,
  reason: RefundReason,
  /** The buyer's words (≤ 1000 characters), never containing the claim that authorized the request. */
  message: t.string,
  charge: ChargeInQuestion,
  at: IsoTime,
});

export const RefundDecision = t.keyof({ approved: null, rejected: null }, 'RefundDecision');

const RefundReviewedData = t.type({ decision: RefundDecision, note: NonEmpty, operator: NonEmpty, at: IsoTime });

/** An operator paid an approved refund outside the service and reports the transfer. */
const RefundPaymentRecordedData = t.type({
  transaction: TxHash,
  amount_micro: Micro,
  note: NonEmpty,
  operator: NonEmpty,
  at: IsoTime,
});

export const RefundEvent = t.union(
  [
    t.type({ type: t.literal('RefundRequested'), data: RefundRequestedData }),
    t.type({ type: t.literal('RefundReviewed'), data: RefundReviewedData }),
    t.type({ type: t.literal('RefundPaymentRecorded'), data: RefundPaymentRecordedData }),
  ],
  'RefundEvent',
);
export type RefundEvent = t.TypeOf<typeof RefundEvent>;
export type RefundEventData<K extends RefundEvent['type']> = Extract<RefundEvent, { type: K }>['data'];

export const REFUND_STREAM_PREFIX = 'refund-';
export const refundStream = (purchaseId: string): string => `${REFUND_STREAM_PREFIX}${purchaseId}`;
