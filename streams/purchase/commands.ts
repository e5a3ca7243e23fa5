import type { Command } from '../decider.js';
import type { PurchaseEventData } from './events.js';

// Commands of the purchase stream. Each carries the data of the event it normally produces (the
// application layer builds, signs and seals it; decide only judges it), so a command never carries a
// secret in clear either.
/** A command without its metadata (what a test fixture or a caller builds). */
export type PurchaseCommandBody =
  | { type: 'Quote'; data: PurchaseEventData<'Quoted'> }
  /** Idempotent: an existing, still valid offer → no new event (the route answers the stored one). */
  | {
      type: 'Offer';
      data: PurchaseEventData<'Offered'>;
      /** The signed-in payer asking (ingestion gate); a purchase pinned to another payer refuses it. */
      payer?: string;
    }
  /** Before settlement is submitted; the same payment again → no event, another one → refused. */
  | { type: 'CheckpointAuthorization'; data: PurchaseEventData<'AuthorizationCheckpointed'> }
  /** Write-ahead: a signed transaction about to be broadcast; the same transaction again → no event. */
  | { type: 'RecordBroadcast'; data: PurchaseEventData<'SettlementBroadcast'> }
  /** An ambiguous submission (timeout, lost receipt): recorded, decided later from the chain. */
  | { type: 'RecordSubmission'; data: PurchaseEventData<'SettlementSubmitted'> }
  /** A confirmed transfer; one that differs from the authorization/offer becomes `Held` instead. */
  | { type: 'RecordSettlement'; data: PurchaseEventData<'Settled'> }
  | { type: 'Deliver'; data: PurchaseEventData<'Delivered'> }
  | { type: 'Hold'; data: PurchaseEventData<'Held'> }
  | { type: 'MarkLockStuck'; data: PurchaseEventData<'LockStuck'> }
  /** The only command a held or stuck purchase accepts. */
  | { type: 'OperatorMove'; data: PurchaseEventData<'OperatorMoved'> };

/** What decide judges: a command body and the time it is decided at. */
export type PurchaseCommand = Command<PurchaseCommandBody>;
