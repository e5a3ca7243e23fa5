import type { PurchaseEventData } from './events.js';

// The purchase's state is only ever the fold of its stream (evolve.ts); it is stored nowhere else.
//
//   none → quoted → offered → checkpointed ⇄ settlement_submitted → settled → delivered
//                                 │                 │                  │          │
//                                 └──────── held / lock_stuck ◄────────┘◄─────────┘ (held only)
//   held / lock_stuck → (OperatorMoved only) → checkpointed | settled | delivered | closed
//
// Status names are the ones the projections (report view, investigation queue) already use.
export type PurchaseStatus =
  | 'none' | 'quoted' | 'offered' | 'checkpointed' | 'settlement_submitted' | 'settled' | 'delivered'
  | 'held' | 'lock_stuck' | 'closed';

/** Statuses only an operator command leaves. */
export const LOCKED_STATUSES: readonly PurchaseStatus[] = ['held', 'lock_stuck'];

export interface PurchaseState {
  status: PurchaseStatus;
  /** Number of events folded: the stream's next expected revision is version - 1. */
  version: number;
  quoted?: PurchaseEventData<'Quoted'>;
  offered?: PurchaseEventData<'Offered'>;
  checkpoint?: PurchaseEventData<'AuthorizationCheckpointed'>;
  /** Ambiguous submissions since the checkpoint (or since the last operator retry). */
  submissions: number;
  last_submission?: PurchaseEventData<'SettlementSubmitted'>;
  settled?: PurchaseEventData<'Settled'>;
  delivered?: PurchaseEventData<'Delivered'>;
  /** The open hold / stuck lock, cleared only by an operator move (the events themselves stay). */
  held?: PurchaseEventData<'Held'>;
  stuck?: PurchaseEventData<'LockStuck'>;
  /** Where the purchase was when it got locked. */
  locked_from?: PurchaseStatus;
  /** Every operator move, in order: the audit trail of the stream's investigations. */
  operator_moves: PurchaseEventData<'OperatorMoved'>[];
}

export const initialState: PurchaseState = Object.freeze({ status: 'none', version: 0, submissions: 0, operator_moves: [] }) as PurchaseState;
