import { assertEventIds } from '../../../src/store/event-id.js';
import {
  WrongExpectedRevision,
  type AppendResult,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type OnEvent,
  type RecordedEvent,
  type Subscription,
} from '../../../src/store/port.js';
import type { EventStoreWithProjections } from '../../../src/store/store-with-projections.js';

// An event store in this process's memory, for tests only: it passes test/store/conformance.ts (see
// test/store/memory.test.ts) so a test that runs the money path on it exercises the same contract as
// PostgreSQL, in milliseconds. Never a default and never imported by src/: the service always opens a
// real store. Data is copied through JSON on the way in, as a database would store it.

/** What survives a close: reopening the same storage sees every event (conformance's "reopen"). */
export interface MemoryStorage {
  events: RecordedEvent[];
  /** Result of each append by the id of its first event: a retry with the same ids answers it again. */
  appends: Map<string, AppendResult>;
  /** Every open instance's subscriptions: an append by one wakes the others (a peer's live delivery). */
  listeners: Set<() => void>;
}

export const memoryStorage = (): MemoryStorage => ({
  events: [],
  appends: new Map(),
  listeners: new Set(),
});

export function memoryEventStore(storage: MemoryStorage = memoryStorage()): EventStoreWithProjections {
  const mine = new Set<() => void>();
  const listen = (l: () => void) => {
    mine.add(l);
    storage.listeners.add(l);
  };
  const unlisten = (l: () => void) => {
    mine.delete(l);
    storage.listeners.delete(l);
  };
  const lastRevision = (stream: string): bigint | 'no_stream' => {
    let last: bigint | 'no_stream' = 'no_stream';
    for (const e of storage.events) if (e.stream === stream) last = e.revision;
    return last;
  };
  const wake = () => {
    for (const l of storage.listeners) l();
  };

  const store: EventStoreWithProjections = {
    kind: 'embedded',
    async append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
      assertEventIds(
        stream,
        events.map((e) => e.id),
      );
      const first = events[0];
      if (!first) throw new TypeError(`stream ${stream}: nothing to append`);
      const earlier = storage.appends.get(first.id.toLowerCase());
      if (earlier) return earlier;
      const actual = lastRevision(stream);
      if (expected !== 'any' && expected !== actual) throw new WrongExpectedRevision(stream, expected, actual);
      let revision = actual === 'no_stream' ? -1n : actual;
      let position = BigInt(storage.events.length);
      for (const e of events) {
        revision += 1n;
        position += 1n;
        storage.events.push({
          id: e.id,
          stream,
          type: e.type,
          revision,
          position,
          data: JSON.parse(JSON.stringify(e.data ?? null)) as unknown,
          metadata: JSON.parse(JSON.stringify(e.metadata ?? {})) as Record<string, unknown>,
          created: new Date(),
        });
      }
      const result = { nextExpectedRevision: revision, position };
      storage.appends.set(first.id.toLowerCase(), result);
      queueMicrotask(wake);
      return result;
    },
    async readStream(stream: string) {
      return storage.events.filter((e) => e.stream === stream);
    },
    async readFirstField(stream: string, field: string) {
      const first = storage.events.find((e) => e.stream === stream && e.revision === 0n);
      if (!first) return undefined;
      const data = first.data as Record<string, unknown> | null;
      return (typeof data === 'object' && data !== null ? data[field] : undefined) ?? null;
    },
    async readAll(from: GlobalPosition, limit: number) {
      return storage.events.filter((e) => e.position > from).slice(0, Math.max(0, limit));
    },
    subscribeAll(from: GlobalPosition, onEvent: OnEvent): Subscription {
      let next = from;
      let closed = false;
      let running = false;
      const pump = async () => {
        if (running || closed) return;
        running = true;
        try {
          for (const e of storage.events.filter((x) => x.position > next)) {
            if (closed) break;
            await onEvent(e);
            next = e.position;
          }
        } finally {
          running = false;
        }
        if (!closed && storage.events.some((x) => x.position > next)) void pump();
      };
      const listener = () => {
        void pump();
      };
      listen(listener);
      void pump();
      return {
        async close() {
          closed = true;
          unlisten(listener);
        },
      };
    },
    async close() {
      for (const l of [...mine]) unlisten(l);
    },
    onAppend(listener: () => void) {
      listen(listener);
      return () => unlisten(listener);
    },
  };
  return store;
}
