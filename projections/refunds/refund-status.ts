import * as t from 'io-ts';

// The refund status a purchase shows on the read side: the refund stream's own status ('none' when
// no request was ever filed).
export const RefundStatusCodec = t.keyof(
  { none: null, requested: null, approved: null, rejected: null, paid: null },
  'RefundStatus',
);
export type RefundStatusValue = t.TypeOf<typeof RefundStatusCodec>;
