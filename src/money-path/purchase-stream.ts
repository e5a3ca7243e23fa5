import { handleCommand, readState, type HandleOptions } from '../command/handle-command.js';
import type { EventStore } from '../store/port.js';
import type { Decider } from '../../streams/decider.js';
import {
  purchaseDecider,
  streamName,
  type PurchaseCommandBody,
  type PurchaseEvent,
  type PurchaseEventData,
  type PurchaseState,
} from '../../streams/purchase/index.js';

// One purchase stream as the money path uses it: its state (the fold of its events with the stream's
// own evolve), and a command run through the one command handler with the service's clock.

export const loadPurchase = async (store: EventStore, id: string): Promise<PurchaseState> =>
  (await readState(store, streamName(id), purchaseDecider)).state;

/** The state with the global position of the stream's last event (where a wait for its next one starts). */
export const readPurchase = (store: EventStore, id: string) => readState(store, streamName(id), purchaseDecider);

interface PurchaseRun {
  /** The state after the command (the fold of what was read plus what was appended). */
  state: PurchaseState;
  /** Whether this call appended anything (false: decided to nothing, e.g. an identical retry). */
  appended: boolean;
}

/** The revision a state was folded at: what a command based on it is appended at. */
export const revisionOf = (state: PurchaseState): 'no_stream' | bigint =>
  state.version === 0 ? 'no_stream' : BigInt(state.version - 1);

/**
 * One command through the command handler. `known` is the state the caller holds (the previous step of
 * its walk): the command is decided on it and appended at its revision without reading the stream, and
 * a stream that moved meanwhile fails the append with WrongExpectedRevision (or, with `retryOnConflict`,
 * is read and decided on again). A sequence of one (runPurchaseCommands).
 */
export const runPurchaseCommand = (
  deps: { store: EventStore; now: () => Date },
  id: string,
  command: StepCommand,
  options: RunOptions = {},
): Promise<PurchaseRun> => runPurchaseCommands(deps, id, [command], options);

type RunOptions = Omit<HandleOptions, 'known'> & { known?: PurchaseState };

export type StepCommand = PurchaseCommandBody | ((state: PurchaseState) => PurchaseCommandBody | undefined);

interface CommandSequence {
  steps: readonly StepCommand[];
  now: Date;
}

/** Decides a sequence's commands in order, each on the state the events before it lead to. */
const sequenceDecider: Decider<PurchaseState, CommandSequence, PurchaseEvent> = {
  ...purchaseDecider,
  decide({ steps, now }, state) {
    const events: PurchaseEvent[] = [];
    let current = state;
    for (const [i, step] of steps.entries()) {
      let decided: PurchaseEvent[];
      try {
        const body = typeof step === 'function' ? step(current) : step;
        if (!body) break;
        decided = purchaseDecider.decide({ ...body, metadata: { now } }, current);
      } catch (refusal) {
        // The first command refuses as it would alone; a later one ends the sequence where it stands.
        if (i === 0) throw refusal;
        break;
      }
      events.push(...decided);
      if (i < steps.length - 1) current = decided.reduce((s, e) => purchaseDecider.evolveDecided(s, e), current);
    }
    return events;
  },
};

/**
 * Commands decided one after another, each on the state the ones before it lead to, and appended together
 * at the revision of the state they start from: one store round trip where there would be two appends at
 * consecutive revisions by the same writer (docs/decisions.md, "A warm paid path, one append for the delivery").
 * The first decides as it would alone (its refusal is thrown); a later one that refuses, or whose
 * builder throws, ends the sequence, and what was decided before it is appended alone.
 */
export async function runPurchaseCommands(
  deps: { store: EventStore; now: () => Date },
  id: string,
  steps: readonly [StepCommand, ...StepCommand[]],
  options: RunOptions = {},
): Promise<PurchaseRun> {
  const { known, ...handle } = options;
  const handled = await handleCommand(deps.store, streamName(id), sequenceDecider, () => ({ steps, now: deps.now() }), {
    ...handle,
    ...(known ? { known: { state: known, revision: revisionOf(known) } } : {}),
  });
  return { state: handled.state, appended: handled.events.length > 0 };
}

/**
 * The state the caller holds, when `command` asks nothing of it (the decider answers no event and refuses
 * nothing); else undefined, and the command is for the handler to run (which reads the stream before it
 * believes a refusal). A walk that goes on from this state unread appends its next command at the state's
 * revision, and that append is the check that the state is still the stream's (docs/decisions.md, "Receipt
 * watcher and a leaner JSON-RPC fetch").
 */
export function unchangedBy(
  deps: { now: () => Date },
  state: PurchaseState,
  command: (state: PurchaseState) => PurchaseCommandBody | undefined,
): PurchaseState | undefined {
  const body = command(state);
  if (!body) return state;
  try {
    return purchaseDecider.decide({ ...body, metadata: { now: deps.now() } }, state).length === 0 ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Records the quote of a new purchase. An identical concurrent request may have quoted first: then
 *  nothing is asked, and the caller continues on the stream as it stands (decide refuses what would
 *  contradict it later, e.g. an offer to another signed-in payer). `known`: the stream's state as the caller
 *  already read it (or knows it: a purchase of a fresh random key has no stream), decided on unread; the
 *  append at its revision checks it, and `retryOnConflict` reads the stream afresh. */
export async function recordQuote(
  deps: { store: EventStore; now: () => Date },
  data: PurchaseEventData<'Quoted'>,
  options: RunOptions = {},
): Promise<PurchaseState> {
  const run = await runPurchaseCommand(
    deps,
    data.purchase_id,
    (state) => (state.quoted ? undefined : { type: 'Quote', data }),
    options,
  );
  return run.state;
}
