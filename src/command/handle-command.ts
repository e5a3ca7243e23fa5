import type { Decider } from '../../streams/decider.js';
import { WrongExpectedRevision, type EventStore, type ExpectedRevision, type GlobalPosition } from '../store/port.js';
import { toNewEvents } from './new-events.js';

// The one command loop of the service, the CLI and the tests (Emmett's handleCommand):
//   read the stream → fold it with the decider's evolve → decide → append at the revision the decision
//   was made on → return the state evolved from the appended events (no second read).
// A caller that already holds the folded state (the previous step of a walk: docs/decisions.md, "One walk
// for a paid redemption") passes it as `known`: the first attempt decides on it without reading, and the
// append at its revision is the check that it is still the stream's state; a decision to do nothing on it
// is checked against the stream read afresh.
// Nothing decided, nothing appended. A concurrent append fails with WrongExpectedRevision; with
// `retryOnConflict` the whole loop runs again on the fresh stream (the command, when it is a function
// of the state, is rebuilt from it, and may be undefined: nothing to ask of this state), so a retry
// never acts on a stale view.

export interface HandleOptions {
  /** Attempts after the first when another writer appended in between (0: propagate the conflict). */
  retryOnConflict?: number;
  /**
   * The revision the caller's decision to send this command was based on (it observed the world against
   * that state): a stream that has moved since fails with WrongExpectedRevision before deciding.
   */
  expectedRevision?: ExpectedRevision;
  /** Event ids; fresh UUIDs by default (the store recognises a re-append of the same ids). */
  newId?: () => string;
  /** The state as the caller last saw it and its revision: the first attempt decides on it, unread. */
  known?: Known<unknown>;
}

interface Known<State> {
  state: State;
  revision: 'no_stream' | bigint;
}

interface Handled<State, Event> {
  /** The state before the decision (as read). */
  before: State;
  /** The state after the appended events. */
  state: State;
  /** What was decided and appended ([] when the decider answered nothing). */
  events: Event[];
  /** The stream's revision after the call ('no_stream' when it still does not exist). */
  revision: 'no_stream' | bigint;
  /** The global position of the last appended event (absent when nothing was appended). */
  position?: bigint;
}

/** The state of a stream as read now, with the revision to append at. */
export async function readState<State>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<State, unknown, never>, 'evolve' | 'initialState'>,
): Promise<{ state: State; revision: 'no_stream' | bigint; position: GlobalPosition }> {
  const recorded = await store.readStream(stream);
  const state = recorded.reduce((s, e) => decider.evolve(s, e), decider.initialState());
  const last = recorded.at(-1);
  return { state, revision: last ? last.revision : 'no_stream', position: last ? last.position : 0n };
}

export async function handleCommand<State, C, Event extends { type: string; data: unknown }>(
  store: EventStore,
  stream: string,
  decider: Decider<State, C, Event>,
  command: C | ((state: State) => C | undefined),
  options: HandleOptions = {},
): Promise<Handled<State, Event>> {
  let known = options.known as Known<State> | undefined;
  for (let attempt = 0; ; attempt++) {
    const unread = known;
    known = undefined;
    const { state, revision } = unread ?? (await readState(store, stream, decider));
    const expected = options.expectedRevision;
    if (expected !== undefined && expected !== 'any' && expected !== revision) {
      throw new WrongExpectedRevision(stream, expected, revision);
    }
    let events: Event[];
    try {
      const c = typeof command === 'function' ? (command as (s: State) => C | undefined)(state) : command;
      events = c === undefined ? [] : decider.decide(c, state);
    } catch (refusal) {
      if (!unread) throw refusal;
      events = [];
    }
    if (events.length === 0) {
      // Nothing to do, or a refusal, on a state the caller held proves nothing (only an append checks its
      // revision): the stream as it stands decides, read now, without counting as a conflict.
      if (unread) {
        attempt--;
        continue;
      }
      return { before: state, state, events, revision };
    }
    try {
      const appended = await store.append(stream, toNewEvents(events, options.newId), revision);
      // decide's own events, folded without a second decode where the decider offers that (streams/decider.ts).
      const after = events.reduce(
        (s, e) => (decider.evolveDecided ? decider.evolveDecided(s, e) : decider.evolve(s, e)),
        state,
      );
      return {
        before: state,
        state: after,
        events,
        revision: appended.nextExpectedRevision,
        position: appended.position,
      };
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision) || attempt >= (options.retryOnConflict ?? 0)) throw err;
    }
  }
}
