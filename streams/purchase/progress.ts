import type { OperatorTarget, PurchaseEventType } from './events.js';
import type { PurchaseStatus } from './state.js';

// Where a purchase stands, and nothing else: the part of the state machine that every reader must
// agree on. `evolve` builds the full state on top of it, and the read models keep exactly these
// fields per purchase and call the same function, so a projection can never disagree with the
// decider about a purchase's status (an OperatorMoved included).

interface PurchaseProgress {
  status: PurchaseStatus;
  /** Ambiguous submissions since the checkpoint (or since the last operator retry). */
  submissions: number;
  /** Where the purchase was when it got locked (held / lock_stuck); cleared by an operator move. */
  locked_from?: PurchaseStatus;
}

/** What `advance` needs of an event: its type, and an operator move's target. */
type ProgressStep =
  | { type: Exclude<PurchaseEventType, 'OperatorMoved'> }
  | { type: 'OperatorMoved'; target: OperatorTarget };

export function advance(p: PurchaseProgress, step: ProgressStep): PurchaseProgress {
  switch (step.type) {
    case 'Quoted':
      return { ...p, status: 'quoted' };
    case 'Offered':
      return { ...p, status: 'offered' };
    case 'AuthorizationCheckpointed':
      return { ...p, status: 'checkpointed', submissions: 0 };
    case 'SettlementSubmitted':
      return { ...p, status: 'settlement_submitted', submissions: p.submissions + 1 };
    case 'SettlementBroadcast':
      return p; // a transaction on record, its fate still unknown: the purchase stands where it was
    case 'Settled':
      return { ...p, status: 'settled' };
    case 'Delivered':
      return { ...p, status: 'delivered' };
    case 'Held':
      return { ...p, status: 'held', locked_from: p.locked_from ?? p.status };
    case 'LockStuck':
      return { ...p, status: 'lock_stuck', locked_from: p.locked_from ?? p.status };
    case 'OperatorMoved': {
      const { locked_from: _from, ...rest } = p;
      switch (step.target) {
        case 'retry_settlement':
          return { ...rest, status: 'checkpointed', submissions: 0 };
        case 'accept_settlement':
          return { ...rest, status: 'settled' };
        case 'closed_no_charge':
          return { ...rest, status: 'closed' };
        case 'closed_settled_delivered':
          return { ...rest, status: 'delivered' };
      }
    }
  }
}

/** The step of a decoded event (an operator move carries its target). */
export const stepOf = (e: { type: PurchaseEventType; data: unknown }): ProgressStep =>
  e.type === 'OperatorMoved'
    ? { type: 'OperatorMoved', target: (e.data as { target: OperatorTarget }).target }
    : { type: e.type };
