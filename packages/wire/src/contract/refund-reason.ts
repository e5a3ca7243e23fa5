import * as t from 'io-ts';

// Why a buyer asks for a refund (POST /v1/rights/refund-requests, docs/wire.md): the body's `reason`, the
// buyer CLI's `--reason`, and the refund stream's RefundRequested event all name these four.

export const RefundReason = t.keyof(
  {
    /** Paid (or possibly charged) but no report came back. */
    NOT_DELIVERED: null,
    /** A report came back and failed the buyer's verification (held on the buyer's side). */
    VERIFICATION_FAILED: null,
    /** Charged more than once, or more than the signed quote. */
    CHARGED_INCORRECTLY: null,
    OTHER: null,
  },
  'RefundReason',
);
export type RefundReason = t.TypeOf<typeof RefundReason>;
