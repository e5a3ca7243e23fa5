import { isLeft } from 'fp-ts/lib/Either.js';
import { PurchaseEvent } from './events.js';
import { advance, stepOf } from './progress.js';
import { initialState, type PurchaseState, type PurchaseStatus, type RecordedFacts } from './state.js';

// evolve(state, event) → state. Pure. Accepts a typed PurchaseEvent or a recorded one ({type, data}
// straight from the store): both are decoded with the event codecs, so an unknown type or a malformed
// event stops the fold loudly rather than producing a state nobody can trust. Status, submissions and
// locked_from come from `advance` (progress.ts), the same function the read models use.

export class UnknownPurchaseEvent extends Error {
  readonly code = 'UNKNOWN_PURCHASE_EVENT';
}

/** A stream whose events cannot have been decided in this order (a status without the facts it needs). */
export class PurchaseEventOutOfOrder extends Error {
  readonly code = 'PURCHASE_EVENT_OUT_OF_ORDER';
}

export function evolve(state: PurchaseState, recorded: { type: string; data: unknown }): PurchaseState {
  const decoded = PurchaseEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownPurchaseEvent(`purchase event ${recorded.type} does not decode`);
  return evolveDecided(state, decoded.right);
}

/**
 * evolve without the decode, for the events decide just answered: decide returns only events its `validated`
 * has decoded with this very codec, and every codec of PurchaseEvent is `t.type` over identity codecs (no
 * `t.exact` stripping, no transforming type), so a decode of them answers the same value and would only repeat
 * that check (docs/decisions.md, "A quote on SQLite"). What comes from a store is still decoded (evolve).
 */
export function evolveDecided(state: PurchaseState, e: PurchaseEvent): PurchaseState {
  const progress = advance(state, stepOf(e));
  const f: Partial<RecordedFacts> = { ...factsOf(state) };
  switch (e.type) {
    case 'Quoted':
      f.quoted = e.data;
      break;
    case 'Offered':
      f.offered = e.data;
      break;
    case 'AuthorizationCheckpointed':
      f.checkpoint = e.data;
      break;
    case 'SettlementSubmitted':
      f.last_submission = e.data;
      break;
    case 'SettlementBroadcast':
      break; // kept in `broadcasts` below
    case 'Settled':
      f.settled = e.data;
      break;
    case 'Delivered':
      f.delivered = e.data;
      break;
    case 'Held':
      f.held = e.data;
      break;
    case 'LockStuck':
      f.stuck = e.data;
      break;
    case 'OperatorMoved':
      delete f.held;
      delete f.stuck;
      if (e.data.target === 'accept_settlement' && e.data.settlement) f.settled = e.data.settlement;
      break;
  }
  const common = {
    version: state.version + 1,
    submissions: progress.submissions,
    broadcasts: e.type === 'SettlementBroadcast' ? [...state.broadcasts, e.data] : state.broadcasts,
    operator_moves: e.type === 'OperatorMoved' ? [...state.operator_moves, e.data] : state.operator_moves,
  };
  return shaped(progress.status, progress.locked_from, f, common);
}

const factsOf = (s: PurchaseState): Partial<RecordedFacts> => {
  const { quoted, offered, checkpoint, last_submission, settled, delivered, held, stuck } = s;
  return Object.fromEntries(
    Object.entries({ quoted, offered, checkpoint, last_submission, settled, delivered, held, stuck }).filter(
      ([, v]) => v !== undefined,
    ),
  );
};

/**
 * The state of `status` with the facts recorded so far: a fact the status needs and the stream never
 * recorded stops the fold (decide never emits such an order); one the status cannot have is not carried.
 */
function shaped(
  status: PurchaseStatus,
  lockedFrom: PurchaseStatus | undefined,
  f: Partial<RecordedFacts>,
  common: Pick<PurchaseState, 'version' | 'submissions' | 'broadcasts' | 'operator_moves'>,
): PurchaseState {
  const need = <K extends keyof RecordedFacts>(k: K): RecordedFacts[K] => f[k] ?? outOfOrder(status, k);
  const may = <K extends keyof RecordedFacts>(...ks: K[]): Partial<Pick<RecordedFacts, K>> =>
    Object.fromEntries(ks.filter((k) => f[k] !== undefined).map((k) => [k, f[k]])) as Partial<Pick<RecordedFacts, K>>;
  const paid = () => ({ quoted: need('quoted'), offered: need('offered'), checkpoint: need('checkpoint') });
  const from = () => lockedFrom ?? outOfOrder(status, 'locked_from');
  switch (status) {
    case 'none':
      return { ...common, status };
    case 'quoted':
      return { ...common, status, quoted: need('quoted') };
    case 'offered':
      return { ...common, status, quoted: need('quoted'), offered: need('offered') };
    case 'checkpointed':
    case 'settlement_submitted':
      return { ...common, status, ...paid(), ...may('last_submission') };
    case 'settled':
      return { ...common, status, ...paid(), settled: need('settled'), ...may('last_submission') };
    case 'delivered':
      return {
        ...common,
        status,
        ...paid(),
        settled: need('settled'),
        delivered: need('delivered'),
        ...may('last_submission'),
      };
    case 'held':
      return {
        ...common,
        status,
        ...paid(),
        held: need('held'),
        locked_from: from(),
        ...may('last_submission', 'settled', 'delivered'),
      };
    case 'lock_stuck':
      return { ...common, status, ...paid(), stuck: need('stuck'), locked_from: from(), ...may('last_submission') };
    case 'closed':
      return { ...common, status, ...paid(), ...may('last_submission', 'settled', 'delivered') };
  }
}

function outOfOrder(status: PurchaseStatus, missing: string): never {
  throw new PurchaseEventOutOfOrder(`a ${status} purchase needs ${missing}, which its stream never recorded`);
}

/** Folds a whole stream from the initial state. */
export const fold = (
  events: readonly { type: string; data: unknown }[],
  from: PurchaseState = initialState,
): PurchaseState => events.reduce<PurchaseState>((state, event) => evolve(state, event), from);
