import {
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  excludeSystemEvents,
  jsonEvent,
  type JSONType,
} from '@eventstore/db-client';
import type { Logger } from '../../runtime/log.js';
import { assertEventIds } from '../event-id.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import type {
  AppendResult,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  OnEvent,
  RecordedEvent,
  Subscription,
} from '../port.js';
import {
  isPortVisible,
  toEsdbExpectedRevision,
  toEsdbReadPosition,
  toRecordedEvent,
  translateEsdbError,
} from './esdb-mapping.js';

/** EventStoreDB / KurrentDB through @eventstore/db-client 6.x (`esdb://` or `kurrentdb://`). */
export async function openEsdbStore(url: string, opts: { log?: Logger } = {}): Promise<EventStoreWithProjections> {
  // The 6.x client only knows the esdb scheme; kurrentdb:// is the same protocol.
  const client = EventStoreDBClient.connectionString(url.replace(/^kurrentdb(\+discover)?:\/\//, 'esdb$1://'));
  const subscriptions = new Set<Subscription>();
  const log = opts.log;

  async function append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    assertEventIds(
      stream,
      events.map((e) => e.id),
    );
    try {
      const result = await client.appendToStream(
        stream,
        events.map((e) =>
          jsonEvent({ id: e.id, type: e.type, data: (e.data ?? null) as JSONType, metadata: e.metadata ?? {} }),
        ),
        { expectedRevision: toEsdbExpectedRevision(expected) },
      );
      return { nextExpectedRevision: result.nextExpectedRevision, position: result.position?.commit ?? 0n };
    } catch (err) {
      throw translateEsdbError(err, { stream, expected });
    }
  }

  const readStream = (stream: string) => readStreamOf(client, stream);
  const readFirstField = (stream: string, field: string) => firstFieldOf(client, stream, field);
  const readAll = (from: GlobalPosition, limit: number) => readAllOf(client, from, limit);

  function subscribeAll(from: GlobalPosition, onEvent: OnEvent): Subscription {
    let closed = false;
    let position = from;
    let current: { unsubscribe(): Promise<void> } | undefined;
    const loop = (async () => {
      let failures = 0;
      while (!closed) {
        const sub = client.subscribeToAll({
          fromPosition: toEsdbReadPosition(position),
          filter: excludeSystemEvents(),
        });
        current = sub;
        try {
          for await (const { event } of sub) {
            if (closed) break;
            failures = 0;
            if (!event || event.position.commit <= position || !isPortVisible(event)) continue;
            try {
              await onEvent(toRecordedEvent(event));
            } catch (err) {
              log?.error(
                { err, position: String(event.position.commit) },
                'subscription handler failed; subscription stopped',
              );
              closed = true;
              break;
            }
            position = event.position.commit;
          }
        } catch (err) {
          if (closed) break;
          failures++;
          log?.warn({ err: translateEsdbError(err), failures }, 'EventStoreDB subscription dropped; resubscribing');
          await new Promise((r) => setTimeout(r, Math.min(5_000, 100 * 2 ** failures)));
        } finally {
          await sub.unsubscribe().catch(() => {});
        }
      }
    })();
    const handle: Subscription = {
      async close() {
        closed = true;
        subscriptions.delete(handle);
        await current?.unsubscribe().catch(() => {});
        await loop;
      },
    };
    subscriptions.add(handle);
    return handle;
  }

  return {
    kind: 'esdb',
    append,
    readStream,
    readFirstField,
    readAll,
    subscribeAll,
    async close() {
      await Promise.all([...subscriptions].map((s) => s.close()));
      await client.dispose();
    },
  };
}

async function readStreamOf(client: EventStoreDBClient, stream: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  try {
    for await (const { event } of client.readStream(stream, { fromRevision: START, direction: FORWARDS })) {
      if (event) out.push(toRecordedEvent(event));
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return [];
    throw translateEsdbError(err);
  }
  return out;
}

async function firstFieldOf(client: EventStoreDBClient, stream: string, field: string): Promise<unknown> {
  try {
    for await (const { event } of client.readStream(stream, {
      fromRevision: START,
      direction: FORWARDS,
      maxCount: 1,
    })) {
      if (!event) continue;
      const data = toRecordedEvent(event).data;
      const value = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
      return value ?? null;
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return undefined;
    throw translateEsdbError(err);
  }
  return undefined;
}

async function readAllOf(client: EventStoreDBClient, from: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  let cursor = toEsdbReadPosition(from);
  // System and internal events are filtered out here, so a page may come back short: read on
  // until `limit` port events are collected or $all ends.
  while (out.length < limit) {
    const want = limit - out.length + 1; // +1: reading from a position includes that event itself
    let seen = 0;
    try {
      for await (const { event } of client.readAll({ fromPosition: cursor, direction: FORWARDS, maxCount: want })) {
        seen++;
        if (!event) continue;
        cursor = event.position;
        if (event.position.commit <= from || !isPortVisible(event)) continue;
        if (out.length > 0 && event.position.commit <= out[out.length - 1]!.position) continue;
        out.push(toRecordedEvent(event));
        if (out.length === limit) break;
      }
    } catch (err) {
      throw translateEsdbError(err);
    }
    if (seen < want) break;
  }
  return out;
}
