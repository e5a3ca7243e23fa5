import { isLeft } from 'fp-ts/lib/Either.js';
import type { PurchaseCommand } from './commands.js';
import { PurchaseEvent, type PurchaseEventData } from './events.js';
import { PurchaseRefused, type RefusalCode } from './refusals.js';
import { LOCKED_STATUSES, type PurchaseState, type SettlingState } from './state.js';

// decide(command, state) → events, or throws PurchaseRefused. Pure and synchronous: no clock but the
// command's `metadata.now`, no ids, no I/O (src/command/handle-command.ts stamps ids and appends at the
// state's revision). This is the only judge of the purchase rules: the application layer reports what
// it observed (an offer it built, an authorization it verified, a transfer it found on chain) and
// this file answers the events, or the refusal.
//
// Spec §3 and docs/decisions.md "Purchase core", as enforced here:
//   none ─Quote→ quoted ─Offer→ offered ─CheckpointAuthorization→ checkpointed
//   checkpointed ─RecordSubmission→ settlement_submitted (ambiguous; resumed from the same checkpoint)
//   checkpointed | settlement_submitted ─RecordBroadcast→ the same status, one more transaction on record
//   checkpointed | settlement_submitted ─RecordSettlement→ settled, or Held when the transfer differs
//   settled ─Deliver→ delivered (exactly once)
//   checkpointed … delivered ─Hold→ held;  checkpointed | settlement_submitted ─MarkLockStuck→ lock_stuck
//   held | lock_stuck ─OperatorMove→ (target)   — and nothing else: a lock is never moved automatically
// Idempotent retries decide to no events: a still-valid offer again, the same authorization again,
// the same settlement again.

export function decide(command: PurchaseCommand, state: PurchaseState): PurchaseEvent[] {
  if (state.status === 'closed') refuse('PURCHASE_CLOSED', 'this purchase was closed by an operator');
  if (LOCKED_STATUSES.includes(state.status) && command.type !== 'OperatorMove') {
    refuse('PURCHASE_LOCKED', `the purchase is ${state.status}; only an operator command moves it on`, {
      reason: state.held?.reason ?? state.stuck?.reason,
    });
  }
  return validated(decideUnlocked(command, state));
}

// One function per command (Emmett's shape); the switch only dispatches, and its `never` makes a
// command added to commands.ts without a function here a compile error.
function decideUnlocked(command: PurchaseCommand, state: PurchaseState): PurchaseEvent[] {
  switch (command.type) {
    case 'Quote':
      return quote(command, state);
    case 'Offer':
      return offer(command, state);
    case 'CheckpointAuthorization':
      return checkpointAuthorization(command, state);
    case 'RecordSubmission':
      return recordSubmission(command, state);
    case 'RecordBroadcast':
      return recordBroadcast(command, state);
    case 'RecordSettlement':
      return recordSettlement(command, state);
    case 'Deliver':
      return deliver(command, state);
    case 'Hold':
      return hold(command, state);
    case 'MarkLockStuck':
      return markLockStuck(command, state);
    case 'OperatorMove':
      return operatorMove(command, state);
    default: {
      const _exhaustive: never = command;
      return refuse('INVALID_EVENT', `unknown command ${(_exhaustive as { type: string }).type}`);
    }
  }
}

type CommandOf<T extends PurchaseCommand['type']> = Extract<PurchaseCommand, { type: T }>;

// Each function reads the state's facts after checking its status: the state is a union by status
// (state.ts), so a fact is there exactly when the status says it is.

function quote(command: CommandOf<'Quote'>, state: PurchaseState): PurchaseEvent[] {
  if (state.status !== 'none') refuse('ALREADY_QUOTED', 'this purchase already has its quote');
  const d = command.data;
  const price = micro(d.price_micro, 'price_micro');
  if (price > micro(d.max_total_micro, 'max_total_micro'))
    refuse('PRICE_EXCEEDS_BUDGET', "the price is above the buyer's max_total_micro", {
      price_micro: d.price_micro,
      max_total_micro: d.max_total_micro,
    });
  if (expired(d.expires_at, command.metadata.now)) refuse('QUOTE_EXPIRED', 'a quote must expire in the future');
  return [{ type: 'Quoted', data: d }];
}

function offer(command: CommandOf<'Offer'>, state: PurchaseState): PurchaseEvent[] {
  const now = command.metadata.now;
  if (state.status === 'none') refuse('NOT_QUOTED', 'no quote for this purchase');
  const pinned = state.quoted?.payer;
  if (pinned !== undefined && command.payer !== undefined && !sameHex(command.payer, pinned)) {
    refuse('PURCHASE_BOUND_TO_OTHER_PAYER', 'this purchase belongs to another signed-in payer; use a new key');
  }
  if (state.status === 'quoted') {
    const q = state.quoted;
    const d = command.data;
    if (expired(q.expires_at, now))
      refuse('OFFER_EXPIRED', 'the quote expired before an offer was made', { expires_at: q.expires_at });
    if (d.requirements.amount !== q.price_micro)
      refuse('OFFER_MISMATCH', 'the offer must ask exactly the quoted price', {
        quoted: q.price_micro,
        offered: d.requirements.amount,
      });
    if (Date.parse(d.expires_at) > Date.parse(q.expires_at))
      refuse('OFFER_MISMATCH', 'the offer cannot outlive the signed quote', { quote_expires_at: q.expires_at });
    return [{ type: 'Offered', data: d }];
  }
  if (state.status === 'offered') {
    if (expired(state.offered.expires_at, now))
      refuse('OFFER_EXPIRED', 'the offer expired; nothing was paid', { expires_at: state.offered.expires_at });
    return []; // the stored offer stands
  }
  if (state.status === 'delivered') refuse('ALREADY_DELIVERED', 'this purchase was paid and delivered');
  return refuse('PURCHASE_ALREADY_PAYING', 'a payment authorization is already recorded for this purchase');
}

function checkpointAuthorization(command: CommandOf<'CheckpointAuthorization'>, state: PurchaseState): PurchaseEvent[] {
  const now = command.metadata.now;
  const d = command.data;
  if (state.status === 'none') refuse('NOT_QUOTED', 'no quote for this purchase');
  if (state.status === 'quoted') refuse('NOT_OFFERED', 'no offer was made for this purchase');
  if (state.status === 'offered') {
    const o = state.offered;
    if (expired(o.expires_at, now))
      refuse('OFFER_EXPIRED', 'the offer expired; nothing was charged', { expires_at: o.expires_at });
    if (!sameHex(d.nonce, o.nonce))
      refuse('AUTHORIZATION_MISMATCH', 'the authorization does not carry the bound nonce', { field: 'nonce' });
    if (!sameMicro(d.amount, o.requirements.amount))
      refuse('AUTHORIZATION_MISMATCH', 'the authorized amount is not the offered amount', {
        field: 'amount',
        offered: o.requirements.amount,
        authorized: d.amount,
      });
    const pinned = state.quoted.payer;
    if (pinned !== undefined && !sameHex(d.payer, pinned))
      refuse(
        'PAYMENT_FROM_NOT_SIGNER',
        "the authorization's from is not the signed-in payer of this purchase; " +
          'sign the offer with that wallet (nothing was charged)',
        { field: 'payer' },
      );
    if (Number(d.valid_before) * 1000 <= now.getTime())
      refuse('PAYMENT_WINDOW_EXPIRED', 'the authorization is past its validBefore');
    return [{ type: 'AuthorizationCheckpointed', data: d }];
  }
  // checkpointed and after: one authorization per purchase, ever.
  if (state.checkpoint.payment_sha256 === d.payment_sha256) return []; // identical retry
  return refuse('PURCHASE_ALREADY_PAYING', 'another payment authorization is already recorded for this purchase');
}

function recordSubmission(command: CommandOf<'RecordSubmission'>, state: PurchaseState): PurchaseEvent[] {
  const s = state.status;
  if (s === 'checkpointed' || s === 'settlement_submitted')
    return [{ type: 'SettlementSubmitted', data: command.data }];
  if (s === 'settled' || s === 'delivered') refuse('ALREADY_SETTLED', 'the purchase is already settled');
  return refuse(notYet(s), 'nothing checkpointed to submit');
}

function recordBroadcast(command: CommandOf<'RecordBroadcast'>, state: PurchaseState): PurchaseEvent[] {
  // Written before the transaction reaches the node (docs/decisions.md, "Write-ahead submission
  // record"): once settled, nothing more may be sent for this purchase.
  const d = command.data;
  if (state.status === 'checkpointed' || state.status === 'settlement_submitted') {
    if (state.broadcasts.some((b) => sameHex(b.transaction, d.transaction))) return []; // recorded already
    if (d.replaces !== undefined && !state.broadcasts.some((b) => sameHex(b.transaction, d.replaces)))
      refuse('INVALID_EVENT', 'a replacement must name a transaction recorded for this purchase', {
        paths: ['replaces'],
      });
    return [{ type: 'SettlementBroadcast', data: d }];
  }
  const s = state.status;
  if (s === 'settled' || s === 'delivered') refuse('ALREADY_SETTLED', 'a settled purchase sends nothing more');
  return refuse(notYet(s), 'no checkpointed authorization to broadcast');
}

function recordSettlement(command: CommandOf<'RecordSettlement'>, state: PurchaseState): PurchaseEvent[] {
  const d = command.data;
  if (state.status === 'checkpointed' || state.status === 'settlement_submitted') {
    const mismatches = settlementMismatches(d, state);
    if (Object.keys(mismatches).length > 0) {
      return [
        {
          type: 'Held',
          data: {
            reason: 'SETTLEMENT_MISMATCH',
            details: { mismatches, settlement: d },
            at: command.metadata.now.toISOString(),
          },
        },
      ];
    }
    return [{ type: 'Settled', data: d }];
  }
  if (state.status === 'settled' || state.status === 'delivered') {
    if (sameHex(state.settled.transaction, d.transaction)) return []; // the same confirmation again
    refuse('ALREADY_SETTLED', 'the purchase is already settled by another transaction', {
      transaction: state.settled.transaction,
    });
  }
  return refuse(notYet(state.status), 'no checkpointed authorization to settle');
}

function deliver(command: CommandOf<'Deliver'>, state: PurchaseState): PurchaseEvent[] {
  const s = state.status;
  if (state.status === 'delivered') refuse('ALREADY_DELIVERED', 'this purchase was already delivered');
  if (state.status !== 'settled')
    return refuse(
      s === 'none' ? 'NOT_QUOTED' : s === 'quoted' ? 'NOT_OFFERED' : 'NOT_SETTLED',
      'the purchase is not settled',
    );
  const settled = state.settled;
  const ps = command.data.response.payment_settlement;
  const proof = command.data.response.delivery_proof.payload.settlement as { transaction?: unknown } | undefined;
  if (
    !sameHex(ps.transaction, settled.transaction) ||
    ps.network !== settled.network ||
    (proof?.transaction !== undefined && !sameHex(String(proof.transaction), settled.transaction))
  ) {
    refuse('DELIVERY_MISMATCH', 'the delivery does not name the recorded settlement', {
      transaction: settled.transaction,
    });
  }
  return [{ type: 'Delivered', data: command.data }];
}

function hold(command: CommandOf<'Hold'>, state: PurchaseState): PurchaseEvent[] {
  const s = state.status;
  if (s === 'checkpointed' || s === 'settlement_submitted' || s === 'settled' || s === 'delivered')
    return [{ type: 'Held', data: command.data }];
  return refuse(notYet(s), 'nothing is at stake before a checkpoint: a refused payment is answered, not held');
}

function markLockStuck(command: CommandOf<'MarkLockStuck'>, state: PurchaseState): PurchaseEvent[] {
  const s = state.status;
  if (s === 'checkpointed' || s === 'settlement_submitted') return [{ type: 'LockStuck', data: command.data }];
  if (s === 'settled' || s === 'delivered') refuse('ALREADY_SETTLED', 'a settled purchase is not stuck in settlement');
  return refuse(notYet(s), 'only a checkpointed, unsettled purchase can be stuck');
}

function operatorMove(command: CommandOf<'OperatorMove'>, state: PurchaseState): PurchaseEvent[] {
  const s = state.status;
  if (!LOCKED_STATUSES.includes(s)) refuse('NOT_LOCKED', `the purchase is ${s}, not held or stuck`);
  const d = command.data;
  switch (d.target) {
    case 'retry_settlement':
      if (!state.checkpoint || state.settled)
        refuse('OPERATOR_TARGET_INVALID', 'retry_settlement needs a checkpointed, unsettled authorization');
      break;
    case 'accept_settlement':
      if (!state.checkpoint || state.delivered)
        refuse('OPERATOR_TARGET_INVALID', 'accept_settlement needs a checkpointed, undelivered purchase');
      if (!d.settlement && !state.settled)
        refuse('OPERATOR_TARGET_INVALID', 'accept_settlement needs the confirmed settlement');
      break;
    case 'closed_no_charge':
      if (state.settled)
        refuse('OPERATOR_TARGET_INVALID', 'a settled purchase was charged: closed_no_charge does not apply');
      break;
    case 'closed_settled_delivered':
      if (!state.delivered) refuse('OPERATOR_TARGET_INVALID', 'closed_settled_delivered needs a delivered purchase');
      break;
  }
  return [{ type: 'OperatorMoved', data: d }];
}

/** What a confirmed transfer must equal: the checkpointed authorization and the offer. */
function settlementMismatches(
  d: PurchaseEventData<'Settled'>,
  state: SettlingState,
): Record<string, { expected: unknown; settled: unknown }> {
  const c = state.checkpoint;
  const req = state.offered.requirements;
  const out: Record<string, { expected: unknown; settled: unknown }> = {};
  if (!sameMicro(d.amount, c.amount) || !sameMicro(d.amount, req.amount))
    out.amount = { expected: req.amount, settled: d.amount };
  if (!sameHex(d.payer, c.payer)) out.payer = { expected: c.payer, settled: d.payer };
  if (d.network !== req.network) out.network = { expected: req.network, settled: d.network };
  if (d.pay_to !== undefined && !sameHex(d.pay_to, req.payTo))
    out.recipient = { expected: req.payTo, settled: d.pay_to };
  if (d.asset !== undefined && !sameHex(d.asset, req.asset)) out.asset = { expected: req.asset, settled: d.asset };
  return out;
}

/** Never hand back an event its own codec would refuse: it would make the stream unreadable forever. */
function validated(events: PurchaseEvent[]): PurchaseEvent[] {
  for (const e of events) {
    const r = PurchaseEvent.decode(e);
    if (isLeft(r)) {
      const paths = r.left.map((err) =>
        err.context
          .map((c) => c.key)
          .filter(Boolean)
          .join('.'),
      );
      refuse('INVALID_EVENT', `${e.type} data does not match its codec`, { paths: [...new Set(paths)] });
    }
  }
  return events;
}

const notYet = (s: PurchaseState['status']): RefusalCode =>
  s === 'none' ? 'NOT_QUOTED' : s === 'quoted' ? 'NOT_OFFERED' : 'NOT_CHECKPOINTED';
const expired = (iso: string, now: Date): boolean => !(Date.parse(iso) > now.getTime());
const sameHex = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
const sameMicro = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' && /^[0-9]+$/.test(a) && /^[0-9]+$/.test(b) && BigInt(a) === BigInt(b);

function micro(value: string, field: string): bigint {
  if (!/^[0-9]+$/.test(value)) refuse('INVALID_EVENT', `${field} is not an integer amount`, { paths: [field] });
  return BigInt(value);
}

function refuse(code: RefusalCode, message: string, details: Record<string, unknown> = {}): never {
  throw new PurchaseRefused(code, message, details);
}
