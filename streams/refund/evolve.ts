import { isLeft } from 'fp-ts/lib/Either.js';
import { RefundEvent } from './events.js';
import { initialRefundState, type RefundState } from './state.js';

// evolve(state, event) → state. Pure; every event is decoded with its codec first, so a malformed
// event stops the fold loudly.

export class UnknownRefundEvent extends Error {
  readonly code = 'UNKNOWN_REFUND_EVENT';
}

export function evolveRefund(state: RefundState, recorded: { type: string; data: unknown }): RefundState {
  const decoded = RefundEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownRefundEvent(`refund event ${recorded.type} does not decode`);
  const e = decoded.right;
  const s: RefundState = { ...state, version: state.version + 1 };
  switch (e.type) {
    case 'RefundRequested':
      return { ...s, status: 'requested', request: e.data };
    case 'RefundReviewed':
      return { ...s, status: e.data.decision, review: e.data };
    case 'RefundPaymentRecorded':
      return { ...s, status: 'paid', payment: e.data };
  }
}

export const foldRefund = (events: readonly { type: string; data: unknown }[]): RefundState =>
  events.reduce<RefundState>((s, e) => evolveRefund(s, e), initialRefundState);
