import { isLeft } from 'fp-ts/lib/Either.js';
import { PurchaseEvent } from './events.js';
import { advance, stepOf } from './progress.js';
import { initialState, type PurchaseState } from './state.js';

// evolve(state, event) → state. Pure. Accepts a typed PurchaseEvent or a recorded one ({type, data}
// straight from the store): both are decoded with the event codecs, so an unknown type or a malformed
// event stops the fold loudly rather than producing a state nobody can trust. Status, submissions and
// locked_from come from `advance` (progress.ts), the same function the read models use.

export class UnknownPurchaseEvent extends Error {
  readonly code = 'UNKNOWN_PURCHASE_EVENT';
}

export function evolve(state: PurchaseState, recorded: { type: string; data: unknown }): PurchaseState {
  const decoded = PurchaseEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownPurchaseEvent(`purchase event ${recorded.type} does not decode`);
  const e = decoded.right;
  const { status, submissions, locked_from } = advance(state, stepOf(e));
  const { locked_from: _previous, ...rest } = state;
  const s: PurchaseState = { ...rest, status, submissions, ...(locked_from ? { locked_from } : {}), version: state.version + 1 };
  switch (e.type) {
    case 'Quoted': return { ...s, quoted: e.data };
    case 'Offered': return { ...s, offered: e.data };
    case 'AuthorizationCheckpointed': return { ...s, checkpoint: e.data };
    case 'SettlementSubmitted': return { ...s, last_submission: e.data };
    case 'Settled': return { ...s, settled: e.data };
    case 'Delivered': return { ...s, delivered: e.data };
    case 'Held': return { ...s, held: e.data };
    case 'LockStuck': return { ...s, stuck: e.data };
    case 'OperatorMoved': {
      const { held: _held, stuck: _stuck, ...moved } = s;
      const next = { ...moved, operator_moves: [...s.operator_moves, e.data] };
      return e.data.target === 'accept_settlement' ? { ...next, settled: e.data.settlement ?? s.settled } : next;
    }
  }
}

/** Folds a whole stream from the initial state. */
export const fold = (events: readonly { type: string; data: unknown }[], from: PurchaseState = initialState): PurchaseState =>
  events.reduce<PurchaseState>((state, event) => evolve(state, event), from);
