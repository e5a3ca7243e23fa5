// The event store port (docs/decisions.md, "Event store"). Every adapter passes test/store/conformance.
// Revisions are 0-based per stream (the first event is revision 0n), as in EventStoreDB,
// so the ESDB adapter is a pass-through. Global positions are monotonic across all streams.

export type ExpectedRevision = 'no_stream' | 'any' | bigint;
export type GlobalPosition = bigint; // 0n = before the first event; readAll(from) returns events with position > from

export interface NewEvent {
  id: string; // UUID; re-appending the same ids at the same revision is a no-op
  type: string;
  data: unknown;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent {
  id: string;
  stream: string;
  type: string;
  revision: bigint;
  position: GlobalPosition;
  data: unknown;
  metadata: Record<string, unknown>;
  created: Date;
}

export interface AppendResult {
  nextExpectedRevision: bigint; // revision of the last event now in the stream
  position: GlobalPosition; // global position of the last appended event
}

export interface Subscription {
  close(): Promise<void>;
}

export type OnEvent = (event: RecordedEvent) => void | Promise<void>;

export interface EventStore {
  readonly kind: 'embedded' | 'postgres' | 'esdb';
  append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream in revision order; [] when the stream does not exist. */
  readStream(stream: string): Promise<RecordedEvent[]>;
  /**
   * One top-level field of the data of a stream's first event (revision 0): undefined when the stream
   * does not exist, null when the field is absent. One read whose cost does not depend on what the stream
   * holds after its first event (the wrong-claim 404 relies on it: docs/decisions.md, "Constant-work 404").
   */
  readFirstField(stream: string, field: string): Promise<unknown>;
  /** Up to `limit` events with position > from, in global order. */
  readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]>;
  /** Catch-up from `from` (exclusive), then live delivery in global order. */
  subscribeAll(from: GlobalPosition, onEvent: OnEvent): Subscription;
  close(): Promise<void>;
}

export class WrongExpectedRevision extends Error {
  readonly code = 'WRONG_EXPECTED_REVISION';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
  }
}

export class StoreUnavailable extends Error {
  readonly code = 'STORE_UNAVAILABLE';
}

export class StoreLocked extends Error {
  readonly code = 'STORE_LOCKED';
}
