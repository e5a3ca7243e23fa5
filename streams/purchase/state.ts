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
  | 'none'
  | 'quoted'
  | 'offered'
  | 'checkpointed'
  | 'settlement_submitted'
  | 'settled'
  | 'delivered'
  | 'held'
  | 'lock_stuck'
  | 'closed';

/** Statuses only an operator command leaves. */
export const LOCKED_STATUSES: readonly PurchaseStatus[] = ['held', 'lock_stuck'];

/** What the stream has recorded, by the event that recorded it. */
export interface RecordedFacts {
  quoted: PurchaseEventData<'Quoted'>;
  offered: PurchaseEventData<'Offered'>;
  checkpoint: PurchaseEventData<'AuthorizationCheckpointed'>;
  /** The last ambiguous submission (its transaction, when one was known). */
  last_submission: PurchaseEventData<'SettlementSubmitted'>;
  settled: PurchaseEventData<'Settled'>;
  delivered: PurchaseEventData<'Delivered'>;
  /** The open hold / stuck lock, cleared only by an operator move (the events themselves stay). */
  held: PurchaseEventData<'Held'>;
  stuck: PurchaseEventData<'LockStuck'>;
}
type Facts = RecordedFacts & {
  /** Where the purchase was when it got locked. */
  locked_from: PurchaseStatus;
};
type FactName = keyof Facts;

interface Common {
  /** Number of events folded: the stream's next expected revision is version - 1. */
  version: number;
  /** Ambiguous submissions since the checkpoint (or since the last operator retry). */
  submissions: number;
  /**
   * Every transaction recorded before its broadcast, in order (write-ahead; never cleared, since any of
   * them may still be mined): what recovery asks the chain about.
   */
  broadcasts: PurchaseEventData<'SettlementBroadcast'>[];
  /** Every operator move, in order: the audit trail of the stream's investigations. */
  operator_moves: PurchaseEventData<'OperatorMoved'>[];
}

/**
 * One status: the facts it always has, those it may have, and every other fact absent (declared
 * `?: undefined`, so any state can be asked `state.settled` and a check of `status` is enough to
 * know what is there: no `state.offered!`).
 */
type Shape<S extends PurchaseStatus, Has extends FactName, May extends FactName = never> = Common & {
  status: S;
} & Pick<Facts, Has> &
  Partial<Pick<Facts, May>> & { [K in Exclude<FactName, Has | May>]?: undefined };

type Paid = 'quoted' | 'offered' | 'checkpoint';
type NoneState = Shape<'none', never>;
type QuotedState = Shape<'quoted', 'quoted'>;
export type OfferedState = Shape<'offered', 'quoted' | 'offered'>;
/** An authorization is checkpointed and not yet settled (perhaps submitted, ambiguously). */
export type SettlingState = Shape<'checkpointed' | 'settlement_submitted', Paid, 'last_submission'>;
export type SettledState = Shape<'settled', Paid | 'settled', 'last_submission'>;
type DeliveredState = Shape<'delivered', Paid | 'settled' | 'delivered', 'last_submission'>;
/** Held from any paid status: what was settled or delivered before the hold stays. */
type HeldState = Shape<'held', Paid | 'held' | 'locked_from', 'last_submission' | 'settled' | 'delivered'>;
type StuckState = Shape<'lock_stuck', Paid | 'stuck' | 'locked_from', 'last_submission'>;
type ClosedState = Shape<'closed', Paid, 'last_submission' | 'settled' | 'delivered'>;

export type PurchaseState =
  | NoneState
  | QuotedState
  | OfferedState
  | SettlingState
  | SettledState
  | DeliveredState
  | HeldState
  | StuckState
  | ClosedState;

export const initialState: PurchaseState = Object.freeze({
  status: 'none',
  version: 0,
  submissions: 0,
  broadcasts: [],
  operator_moves: [],
}) as NoneState;
