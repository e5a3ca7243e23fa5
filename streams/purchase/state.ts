import { isLeft } from 'fp-ts/lib/Either.js';
import { PurchaseEvent } from './events.js';

// The purchase's state is only ever the fold of its stream.
export type PurchaseStatus = 'none' | 'quoted' | 'offered' | 'checkpointed' | 'settlement_submitted' | 'settled' | 'delivered' | 'held' | 'lock_stuck';
type Data<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>['data'];

export interface PurchaseState {
  status: PurchaseStatus;
  quoted?: Data<'Quoted'>;
  offered?: Data<'Offered'>;
  checkpoint?: Data<'AuthorizationCheckpointed'>;
  submissions: number;
  settled?: Data<'Settled'>;
  delivered?: Data<'Delivered'>;
  held?: Data<'Held'>;
  stuck?: Data<'LockStuck'>;
}

export const initialState: PurchaseState = { status: 'none', submissions: 0 };

export class UnknownPurchaseEvent extends Error {}

/** Folds one recorded event ({type, data}); an event that does not decode stops the fold loudly. */
export function evolve(state: PurchaseState, recorded: { type: string; data: unknown }): PurchaseState {
  const decoded = PurchaseEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownPurchaseEvent(`purchase event ${recorded.type} does not decode`);
  const e = decoded.right;
  switch (e.type) {
    case 'Quoted': return { ...state, status: 'quoted', quoted: e.data };
    case 'Offered': return { ...state, status: 'offered', offered: e.data };
    case 'AuthorizationCheckpointed': return { ...state, status: 'checkpointed', checkpoint: e.data };
    case 'SettlementSubmitted': return { ...state, status: 'settlement_submitted', submissions: state.submissions + 1 };
    case 'Settled': return { ...state, status: 'settled', settled: e.data };
    case 'Delivered': return { ...state, status: 'delivered', delivered: e.data };
    case 'Held': return { ...state, status: 'held', held: e.data };
    case 'LockStuck': return { ...state, status: 'lock_stuck', stuck: e.data };
    case 'OperatorMoved': {
      const { held: _h, stuck: _s, ...rest } = state;
      return { ...rest, status: e.data.to, submissions: 0 };
    }
  }
}
