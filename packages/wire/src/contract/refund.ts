import * as t from 'io-ts';
import { strictType } from './decode.js';
import { patternString } from './constrained.js';
import { Address, GATEWAY_VERSION, IsoTime, MicroString, PurchaseId, TxHash } from './common.js';
import { RefundReason } from './refund-reason.js';

// POST /v1/rights/refund-requests and GET /v1/rights/refund-requests/{purchase_id} (spec §3: a refund
// request is an operator-reviewed record, never an automatic transfer). Authorized by X-Service-Claim,
// the same credential that reads the report (the claim token, or the X-Service-Request key of a
// preflight or gate purchase).

export const REFUND_REQUESTS_PATH = '/v1/rights/refund-requests' as const;

export const RefundRequestBody = strictType(
  {
    purchase_id: PurchaseId,
    reason: RefundReason,
  },
  {
    message: patternString(
      'RefundMessage',
      /^[^\u0000\ud800-\udfff]*$/u,
      'must be valid Unicode text (no NUL, no lone surrogate) of at most 1000 characters',
      { maxLength: 1000 },
    ),
  },
  'RefundRequestBody',
);
export type RefundRequestBody = t.TypeOf<typeof RefundRequestBody>;

export const RefundView = t.intersection(
  [
    t.type({
      version: t.literal(GATEWAY_VERSION),
      purchase_id: PurchaseId,
      status: t.keyof({ requested: null, approved: null, rejected: null, paid: null }),
      reason: RefundReason,
      charge: t.type({ amount_micro: MicroString, payer: Address, transaction: t.union([TxHash, t.null]) }),
      requested_at: IsoTime,
      /** Always false: approval is an operator's decision, and any refund is paid by an operator. */
      automatic_transfer: t.literal(false),
    }),
    t.partial({
      review: t.type({ decision: t.keyof({ approved: null, rejected: null }), note: t.string, at: IsoTime }),
      refund: t.type({ transaction: TxHash, amount_micro: MicroString, at: IsoTime }),
    }),
  ],
  'RefundView',
);
export type RefundView = t.TypeOf<typeof RefundView>;
