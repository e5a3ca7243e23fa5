import {
  ANY,
  NO_STREAM,
  START,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamRecordedEvent,
  type AppendExpectedRevision,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  StoreUnavailable,
  WrongExpectedRevision,
  type ExpectedRevision,
  type GlobalPosition,
  type RecordedEvent,
} from '../port.js';

// Pure translation between the port and @eventstore/db-client 6.x, kept apart from the client
// calls so it is unit-tested without a server.
//
// Revisions: the port uses ESDB's convention (0-based, 'no_stream' sentinel), so they pass through.
// Positions: the port's GlobalPosition is the event's commit position. Since EventStoreDB 20 every
// event written over gRPC has commit === prepare (there are no explicit transactions), so
// {commit: p, prepare: p} names the event exactly when reading or subscribing from it.

export function toEsdbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'any') return ANY;
  if (expected < 0n) throw new RangeError(`expected revision must be >= 0, got ${expected}`);
  return expected;
}

/** Where to start reading $all so that every event with position > from is included. */
export function toEsdbReadPosition(from: GlobalPosition): ReadPosition {
  return from === 0n ? START : { commit: from, prepare: from };
}

export function toGlobalPosition(position: { commit: bigint } | undefined): GlobalPosition {
  if (!position) throw new Error('EventStoreDB returned an event without a position (server older than 22.6?)');
  return position.commit;
}

/**
 * Streams this adapter wrote for itself (projection states, until the projections left the store: stores
 * opened before then may still hold them); they are not part of the $all the port exposes.
 */
export const INTERNAL_STREAM_PREFIX = 'rights-store-internal-';

export function isPortVisible(event: { streamId: string; type: string }): boolean {
  return (
    !event.type.startsWith('$') && !event.streamId.startsWith('$') && !event.streamId.startsWith(INTERNAL_STREAM_PREFIX)
  );
}

export function toRecordedEvent(
  event:
    | AllStreamRecordedEvent
    | (Omit<AllStreamRecordedEvent, 'position'> & { position?: AllStreamRecordedEvent['position'] }),
): RecordedEvent {
  const metadata = event.metadata;
  return {
    id: event.id,
    stream: event.streamId,
    type: event.type,
    revision: event.revision,
    position: toGlobalPosition(event.position),
    data: event.isJson ? event.data : decodeBinary(event.data),
    metadata: isRecord(metadata) ? metadata : {},
    created: event.created,
  };
}

const GRPC_UNAVAILABLE = 14;

/**
 * WrongExpectedVersionError → WrongExpectedRevision; UnavailableError and the raw gRPC
 * "14 UNAVAILABLE" error (which 6.x throws from appendToStream when nothing listens, not wrapped,
 * infra.md §1a) → StoreUnavailable. Anything else passes through.
 */
export function translateEsdbError(err: unknown, context?: { stream: string; expected: ExpectedRevision }): unknown {
  if (err instanceof WrongExpectedVersionError) {
    const actual = err.actualVersion;
    return new WrongExpectedRevision(
      context?.stream ?? err.streamName,
      context?.expected ?? fromEsdbExpected(err.expectedVersion),
      typeof actual === 'bigint' ? actual : 'no_stream',
    );
  }
  if (err instanceof UnavailableError)
    return new StoreUnavailable(`EventStoreDB unavailable: ${err.message}`, { cause: err });
  if (
    err instanceof Error &&
    ((err as { code?: unknown }).code === GRPC_UNAVAILABLE || /^14 UNAVAILABLE/.test(err.message))
  ) {
    return new StoreUnavailable(`EventStoreDB unavailable: ${err.message}`, { cause: err });
  }
  return err;
}

function fromEsdbExpected(expected: AppendExpectedRevision): ExpectedRevision {
  if (typeof expected === 'bigint') return expected;
  // 'stream_exists' has no port equivalent; 'any' is the closest honest report.
  return expected === NO_STREAM ? 'no_stream' : 'any';
}

function decodeBinary(data: unknown): unknown {
  if (!(data instanceof Uint8Array)) return data;
  const text = Buffer.from(data).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
