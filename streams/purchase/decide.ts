import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../src/store/port.js';
import type { PurchaseEvent } from './events.js';
import type { PurchaseState, PurchaseStatus } from './state.js';

// Commands → events, or a refusal. Pure apart from the event ids.
type Data<T extends PurchaseEvent['type']> = Extract<PurchaseEvent, { type: T }>['data'];
export type PurchaseCommand =
  | { type: 'Quote'; data: Data<'Quoted'> }
  | { type: 'Offer'; data: Data<'Offered'> }
  | { type: 'CheckpointAuthorization'; data: Data<'AuthorizationCheckpointed'> }
  | { type: 'RecordSubmission'; data: Data<'SettlementSubmitted'> }
  | { type: 'RecordSettlement'; data: Data<'Settled'> }
  | { type: 'Deliver'; data: Data<'Delivered'> }
  | { type: 'Hold'; data: Data<'Held'> }
  | { type: 'MarkLockStuck'; data: Data<'LockStuck'> }
  | { type: 'OperatorMove'; data: Data<'OperatorMoved'> };

export class PurchaseRefused extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

const RULES: Record<PurchaseCommand['type'], { from: PurchaseStatus[]; event: PurchaseEvent['type'] }> = {
  Quote: { from: ['none'], event: 'Quoted' },
  Offer: { from: ['quoted'], event: 'Offered' },
  CheckpointAuthorization: { from: ['offered'], event: 'AuthorizationCheckpointed' },
  RecordSubmission: { from: ['checkpointed', 'settlement_submitted'], event: 'SettlementSubmitted' },
  RecordSettlement: { from: ['checkpointed', 'settlement_submitted'], event: 'Settled' },
  Deliver: { from: ['settled'], event: 'Delivered' },
  Hold: { from: ['checkpointed', 'settlement_submitted', 'settled', 'delivered'], event: 'Held' },
  MarkLockStuck: { from: ['checkpointed', 'settlement_submitted'], event: 'LockStuck' },
  OperatorMove: { from: ['held', 'lock_stuck'], event: 'OperatorMoved' },
};

export function decide(command: PurchaseCommand, state: PurchaseState, now: Date): NewEvent[] {
  const rule = RULES[command.type];
  if (!rule.from.includes(state.status)) {
    throw new PurchaseRefused('PURCHASE_STATE', `${command.type} is not allowed when the purchase is ${state.status}`);
  }
  if ((command.type === 'Offer' || command.type === 'CheckpointAuthorization') && state.quoted && Date.parse(state.quoted.expires_at) <= now.getTime()) {
    throw new PurchaseRefused('OFFER_EXPIRED', 'the quote and its offer have expired');
  }
  return [{ id: randomUUID(), type: rule.event, data: command.data }];
}
