import { isLeft } from 'fp-ts/lib/Either.js';
import { PurchaseEvent } from './events.js';
import { initialState, type PurchaseState, type PurchaseStatus } from './state.js';

// evolve(state, event) → state. Pure. Accepts a typed PurchaseEvent or a recorded one ({type, data}
// straight from the store): both are decoded with the event codecs, so an unknown type or a malformed
// event stops the fold loudly rather than producing a state nobody can trust.

export class UnknownPurchaseEvent extends Error {
  readonly code = 'UNKNOWN_PURCHASE_EVENT';
}

export function evolve(state: PurchaseState, recorded: { type: string; data: unknown }): PurchaseState {
  const decoded = PurchaseEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownPurchaseEvent(`purchase event ${recorded.type} does not decode`);
  const e = decoded.right;
  const s: PurchaseState = { ...state, version: state.version + 1 };
  switch (e.type) {
    case 'Quoted': return { ...s, status: 'quoted', quoted: e.data };
    case 'Offered': return { ...s, status: 'offered', offered: e.data };
    case 'AuthorizationCheckpointed': return { ...s, status: 'checkpointed', checkpoint: e.data, submissions: 0 };
    case 'SettlementSubmitted': return { ...s, status: 'settlement_submitted', submissions: s.submissions + 1, last_submission: e.data };
    case 'Settled': return { ...s, status: 'settled', settled: e.data };
    case 'Delivered': return { ...s, status: 'delivered', delivered: e.data };
    case 'Held': return { ...s, status: 'held', held: e.data, locked_from: lockedFrom(state) };
    case 'LockStuck': return { ...s, status: 'lock_stuck', stuck: e.data, locked_from: lockedFrom(state) };
    case 'OperatorMoved': {
      const { held: _held, stuck: _stuck, locked_from: _from, ...rest } = s;
      const moved = { ...rest, operator_moves: [...s.operator_moves, e.data] };
      switch (e.data.target) {
        case 'retry_settlement': return { ...moved, status: 'checkpointed', submissions: 0 };
        case 'accept_settlement': return { ...moved, status: 'settled', settled: e.data.settlement ?? s.settled };
        case 'closed_no_charge': return { ...moved, status: 'closed' };
        case 'closed_settled_delivered': return { ...moved, status: 'delivered' };
      }
    }
  }
}

const lockedFrom = (state: PurchaseState): PurchaseStatus => state.locked_from ?? state.status;

/** Folds a whole stream from the initial state. */
export const fold = (events: readonly { type: string; data: unknown }[], from: PurchaseState = initialState): PurchaseState =>
  events.reduce<PurchaseState>((state, event) => evolve(state, event), from);
