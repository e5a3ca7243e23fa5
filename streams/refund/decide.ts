import { isLeft } from 'fp-ts/lib/Either.js';
import { RefundEvent, type RefundEventData, type RefundReason } from './events.js';
import { initialRefundState, type RefundState } from './state.js';
import { evolveRefund } from './evolve.js';
import type { Command, Decider } from '../decider.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import type { Hex } from '@rights-preflight/wire/contract/primitives.js';
import { carriesClaim } from './claim-in-text.js';
import {
  judgeRefundTransfer,
  REFUND_TRANSFER_REFUSAL_CODES,
  type ExpectedRefund,
  type RefundTransferOnChain,
} from './refund-transfer.js';

// decide(command, state) → events. Pure. The purchase facts a request needs (was anything charged, how
// much, to whom) are read from the purchase stream by the caller and passed in, so the rule "only a
// charge can be refunded" is decided here, where it can be tested exhaustively.

export const REFUND_REFUSAL_CODES = [
  'REFUND_NOTHING_CHARGED', // no authorization was ever checkpointed, or the purchase was closed without a charge
  'REFUND_ALREADY_REQUESTED', // one request per purchase
  'REFUND_MESSAGE_INVALID', // longer than 1000 characters, or carrying the claim that authorized it
  'REFUND_NOT_PENDING', // a review of a request that is not waiting for one
  'REFUND_NOT_APPROVED', // a payment record for a request that was not approved
  'REFUND_AMOUNT_EXCEEDS_CHARGE', // a recorded refund larger than the charge in question
  'REFUND_INVALID_EVENT', // command data its codec refuses
  ...REFUND_TRANSFER_REFUSAL_CODES, // the transaction is not the refund it is said to be (./refund-transfer.ts)
] as const;
type RefundRefusalCode = (typeof REFUND_REFUSAL_CODES)[number];

export class RefundRefused extends Refusal {
  override readonly name = 'RefundRefused';
  constructor(
    override readonly code: RefundRefusalCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** What the purchase stream says about money, as of the request. */
export interface PurchaseCharge {
  status: string;
  /** The checkpointed authorization (the buyer signed it; it may have been charged). */
  authorization?: { amount: string; payer: Hex };
  settlement?: { amount: string; payer: Hex; transaction: Hex };
  /** The purchase was closed by an operator as never charged. */
  closedWithoutCharge: boolean;
}

const MAX_REFUND_MESSAGE = 1000;

export type RefundCommandBody =
  | {
      type: 'RequestRefund';
      data: { purchase_id: string; reason: RefundReason; message: string; purchase: PurchaseCharge; claim: string };
    }
  | { type: 'ReviewRefund'; data: RefundEventData<'RefundReviewed'> }
  | {
      type: 'RecordRefundPayment';
      data: RefundEventData<'RefundPaymentRecorded'> & {
        /** What the chain says about `transaction`, read by the caller (src/refund/refund-transfer-reads.ts). */
        onChain: RefundTransferOnChain;
        senders: ExpectedRefund['senders'];
      };
    };
type RefundCommand = Command<RefundCommandBody>;

const refuse = (code: RefundRefusalCode, message: string): never => {
  throw new RefundRefused(code, message);
};

function checked(event: RefundEvent): RefundEvent[] {
  if (isLeft(RefundEvent.decode(event)))
    refuse('REFUND_INVALID_EVENT', `${event.type} data does not satisfy its codec`);
  return [event];
}

// One function per command (Emmett's shape); the `never` makes a command without a function a compile error.
export function decideRefund(command: RefundCommand, state: RefundState): RefundEvent[] {
  switch (command.type) {
    case 'RequestRefund':
      return requestRefund(command, state);
    case 'ReviewRefund':
      return reviewRefund(command, state);
    case 'RecordRefundPayment':
      return recordRefundPayment(command, state);
    default: {
      const _exhaustive: never = command;
      return refuse('REFUND_INVALID_EVENT', `unknown command ${(_exhaustive as { type: string }).type}`);
    }
  }
}

type CommandOf<T extends RefundCommand['type']> = Extract<RefundCommand, { type: T }>;

function requestRefund(command: CommandOf<'RequestRefund'>, state: RefundState): RefundEvent[] {
  const c = command.data;
  if (state.status !== 'none')
    refuse('REFUND_ALREADY_REQUESTED', `a refund request for this purchase exists (${state.status})`);
  if (c.message.length > MAX_REFUND_MESSAGE)
    refuse('REFUND_MESSAGE_INVALID', `message is longer than ${MAX_REFUND_MESSAGE} characters`);
  // The claim is a bearer credential: it must not be written into an event in clear.
  if (carriesClaim(c.message, c.claim))
    refuse('REFUND_MESSAGE_INVALID', 'message contains the claim token; remove it (it is a secret)');
  const p = c.purchase;
  const charged = p.settlement ?? (p.closedWithoutCharge ? undefined : p.authorization);
  if (!charged)
    return refuse(
      'REFUND_NOTHING_CHARGED',
      'nothing was charged for this purchase: no payment was accepted, or it was closed without a charge',
    );
  return checked({
    type: 'RefundRequested',
    data: {
      purchase_id: c.purchase_id,
      reason: c.reason,
      message: c.message,
      charge: {
        purchase_status: p.status,
        amount_micro: charged.amount,
        payer: charged.payer,
        transaction: p.settlement?.transaction ?? null,
      },
      at: command.metadata.now.toISOString(),
    },
  });
}

function reviewRefund(command: CommandOf<'ReviewRefund'>, state: RefundState): RefundEvent[] {
  if (state.status !== 'requested')
    refuse('REFUND_NOT_PENDING', `the request is ${state.status}, not waiting for a review`);
  return checked({ type: 'RefundReviewed', data: command.data });
}

function recordRefundPayment(command: CommandOf<'RecordRefundPayment'>, state: RefundState): RefundEvent[] {
  if (state.status !== 'approved')
    refuse('REFUND_NOT_APPROVED', `the request is ${state.status}; only an approved refund can be recorded as paid`);
  const { onChain, senders, ...data } = command.data;
  const events = checked({ type: 'RefundPaymentRecorded', data });
  if (BigInt(data.amount_micro) > BigInt(state.request!.charge.amount_micro)) {
    refuse(
      'REFUND_AMOUNT_EXCEEDS_CHARGE',
      `refund ${data.amount_micro} exceeds the charge ${state.request!.charge.amount_micro}`,
    );
  }
  // The chain's answer must be about this transaction, and say it is this refund.
  if (onChain.transaction.toLowerCase() !== data.transaction.toLowerCase())
    refuse('REFUND_INVALID_EVENT', 'the chain facts are about another transaction');
  const wrong = judgeRefundTransfer(onChain, {
    payer: state.request!.charge.payer,
    amount_micro: data.amount_micro,
    senders,
  });
  if (wrong) refuse(wrong.code, wrong.message);
  return events;
}

/** The refund stream's decider, in the shape src/command/handle-command.ts runs. */
export const refundDecider: Decider<RefundState, RefundCommand, RefundEvent> = {
  decide: decideRefund,
  evolve: evolveRefund,
  initialState: () => initialRefundState,
};
