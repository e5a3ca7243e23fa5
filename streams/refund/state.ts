import type { RefundEventData } from './events.js';

// none → requested → approved → paid
//                  ↘ rejected
type RefundStatus = 'none' | 'requested' | 'approved' | 'rejected' | 'paid';

export interface RefundState {
  status: RefundStatus;
  /** Number of events folded: the stream's next expected revision is version - 1. */
  version: number;
  request?: RefundEventData<'RefundRequested'>;
  review?: RefundEventData<'RefundReviewed'>;
  payment?: RefundEventData<'RefundPaymentRecorded'>;
}

export const initialRefundState: RefundState = Object.freeze({ status: 'none', version: 0 }) as RefundState;
