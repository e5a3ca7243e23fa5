import type { Logger } from '../src/log.js';
import type { EventStoreWithProjections, ProjectionStates } from '../src/store/projection-states.js';
import type { GlobalPosition, RecordedEvent, Subscription } from '../src/store/port.js';

/**
 * A read model as a pure reducer over `$all`. `apply` must not mutate its input: the runner
 * keeps the previous state while it rebuilds, and starts every rebuild from a copy of `initial`.
 * The state is stored as JSON; give `toJson`/`fromJson` when it holds anything else (bigint
 * amounts, Maps). Bump `version` whenever `apply` changes meaning: a stored state of another
 * version is discarded and rebuilt from the first event.
 */
export interface Projection<S> {
  name: string;
  version: number;
  initial: S;
  apply(state: S, event: RecordedEvent): S;
  toJson?(state: S): unknown;
  fromJson?(json: unknown): S;
}

export interface ProjectionRunnerOptions<S> {
  store: EventStoreWithProjections;
  projection: Projection<S>;
  /** Where checkpoint + state are kept; defaults to the store's own `projectionStates()`. */
  states?: ProjectionStates;
  log?: Logger;
  /** Save checkpoint + state after this many events; the runner also saves whenever it goes idle. */
  saveEvery?: number;
  /** How long after the last event an idle save happens. */
  idleSaveMs?: number;
}

export interface ProjectionRunner<S> {
  /** Loads the stored checkpoint, catches up to the head of `$all`, then follows it live. */
  start(): Promise<void>;
  /** The current view (do not mutate it). */
  view(): S;
  /** The position of the last event folded into the view (0n: none). */
  position(): GlobalPosition;
  /** Resolves with the view once it includes every event up to `position` (read-your-writes). */
  waitFor(position: GlobalPosition, opts?: { timeoutMs?: number }): Promise<S>;
  /** Replays `$all` from the first event into a fresh state, then swaps it in; the old view is served meanwhile. */
  rebuild(): Promise<void>;
  /** Saves checkpoint + state and stops following `$all`. */
  stop(): Promise<void>;
}

const PAGE = 500;

export function projectionRunner<S>(opts: ProjectionRunnerOptions<S>): ProjectionRunner<S> {
  const { store, projection, log } = opts;
  const states = opts.states ?? store.projectionStates();
  const saveEvery = opts.saveEvery ?? 100;
  const idleSaveMs = opts.idleSaveMs ?? 50;
  const toJson = projection.toJson ?? ((s: S) => s as unknown);
  const fromJson = projection.fromJson ?? ((j: unknown) => j as S);

  let state: S = fresh();
  let position: GlobalPosition = 0n;
  let savedPosition: GlobalPosition | undefined;
  let unsaved = 0; // events folded since the last save (positions are not dense on EventStoreDB)
  let subscription: Subscription | undefined;
  let started = false;
  let failure: Error | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const waiters = new Set<{ position: GlobalPosition; resolve: (s: S) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  // One thing at a time touches state: live events, idle saves, rebuild and stop.
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = chain.then(work);
    chain = run.catch(() => {});
    return run;
  };
  // Start, rebuild and stop follow each other, never overlap.
  let lifecycle: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lifecycle.then(work);
    lifecycle = run.catch(() => {});
    return run;
  };

  function fresh(): S {
    return structuredClone(projection.initial);
  }

  async function save(): Promise<void> {
    if (savedPosition === position) return;
    await states.save(projection.name, { version: projection.version, position, state: toJson(state) });
    savedPosition = position;
    unsaved = 0;
  }

  function advanced(): void {
    for (const w of [...waiters]) {
      if (position >= w.position) {
        waiters.delete(w);
        clearTimeout(w.timer);
        w.resolve(state);
      }
    }
  }

  function fail(err: Error): void {
    failure = err;
    for (const w of waiters) {
      clearTimeout(w.timer);
      w.reject(err);
    }
    waiters.clear();
  }

  /** Folds every event after `from` into `into`; returns the new state and position. */
  async function catchUp(into: S, from: GlobalPosition): Promise<{ state: S; position: GlobalPosition }> {
    let s = into;
    let at = from;
    for (;;) {
      const page = await store.readAll(at, PAGE);
      for (const event of page) {
        s = projection.apply(s, event);
        at = event.position;
      }
      if (page.length < PAGE) return { state: s, position: at };
    }
  }

  async function onLiveEvent(event: RecordedEvent): Promise<void> {
    await exclusive(async () => {
      if (event.position <= position) return; // already folded (catch-up overlap or redelivery)
      try {
        state = projection.apply(state, event);
      } catch (err) {
        const error = new Error(`projection ${projection.name} failed on event at position ${event.position}: ${String(err)}`, { cause: err });
        log?.error({ err, projection: projection.name, position: String(event.position) }, 'projection stopped');
        fail(error);
        throw error; // ends the subscription; the view stays at the last good event
      }
      position = event.position;
      unsaved++;
      advanced();
      if (unsaved >= saveEvery) await save();
      scheduleIdleSave();
    });
  }

  function scheduleIdleSave(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      exclusive(save).catch((err) => log?.warn({ err, projection: projection.name }, 'saving projection state failed; will retry on the next event'));
    }, idleSaveMs);
    idleTimer.unref();
  }

  async function follow(): Promise<void> {
    subscription = store.subscribeAll(position, onLiveEvent);
  }

  async function unfollow(): Promise<void> {
    const sub = subscription;
    subscription = undefined;
    await sub?.close();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
  }

  return {
    start: () =>
      oneAtATime(async () => {
        if (started) return;
        failure = undefined;
        const stored = await states.load(projection.name);
        if (stored && stored.version === projection.version) {
          state = fromJson(stored.state);
          position = stored.position;
          savedPosition = stored.position;
        } else {
          if (stored) log?.info({ projection: projection.name, stored: stored.version, now: projection.version }, 'projection version changed; rebuilding from the first event');
          state = fresh();
          position = 0n;
          savedPosition = undefined;
        }
        await exclusive(async () => {
          ({ state, position } = await catchUp(state, position));
          await save();
          advanced();
        });
        await follow();
        started = true;
      }),

    view: () => state,
    position: () => position,

    waitFor(target, { timeoutMs = 10_000 } = {}) {
      if (failure) return Promise.reject(failure);
      if (position >= target) return Promise.resolve(state);
      if (!started) return Promise.reject(new Error(`projection ${projection.name} is not running`));
      return new Promise<S>((resolve, reject) => {
        const waiter = {
          position: target,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(`projection ${projection.name} did not reach position ${target} within ${timeoutMs} ms (at ${position})`));
          }, timeoutMs),
        };
        waiters.add(waiter);
      });
    },

    rebuild: () =>
      oneAtATime(async () => {
        const wasFollowing = started;
        await unfollow();
        await exclusive(async () => {
          // Dropped first: a crash mid-rebuild then restarts from zero instead of resuming a stale state.
          await states.drop(projection.name);
          savedPosition = undefined;
          const rebuilt = await catchUp(fresh(), 0n);
          state = rebuilt.state;
          position = rebuilt.position;
          failure = undefined;
          await save();
          advanced();
        });
        if (wasFollowing) await follow();
      }),

    stop: () =>
      oneAtATime(async () => {
        if (!started) return;
        started = false;
        await unfollow();
        await exclusive(save);
        for (const w of waiters) {
          clearTimeout(w.timer);
          w.reject(new Error(`projection ${projection.name} stopped`));
        }
        waiters.clear();
      }),
  };
}
