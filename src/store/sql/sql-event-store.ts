import type { Logger } from '../../runtime/log.js';
import { heldSubscription } from '../catch-up-subscription.js';
import { Doorbell } from '../doorbell.js';
import { assertEventIds } from '../event-id.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import {
  WrongExpectedRevision,
  type AppendResult,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../port.js';
import { groupCommit, type Outcome } from './group-commit.js';
import type { SqlDriver, SqlQueryable } from '../sql-driver.js';
import {
  APPEND_ORDER_LOCK,
  INSERT_EVENTS,
  INSERT_EVENTS_AT_HEAD,
  INSERT_EVENTS_AT_HEADS,
  LAST_POSITION_OF_STREAM,
  READ_ALL,
  READ_FIRST_FIELD,
  READ_STREAM,
  STREAM_EVENTS_WITH_IDS,
  STREAM_FROM_REVISION,
  STREAM_HEAD,
  type EventRow,
  type PositionedIdRow,
} from './statements.js';
import { sameRun } from '../same-run.js';

const UNIQUE_VIOLATION = '23505';

interface AppendRequest {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}
const NO_STREAM = -1n;

export interface SqlEventStoreOptions {
  log?: Logger;
  /** How long a caught-up subscription waits without a notification before it polls anyway. */
  pollMs?: number;
  /** At most this many concurrent appends share one transaction (1 turns group commit off; benchmarks compare). */
  maxAppendBatch?: number;
}

/**
 * The EventStore port over SQL, for both PGlite and PostgreSQL.
 *
 * Optimistic concurrency lives in the database: the append checks the stream head inside a
 * transaction that holds the append-order lock, and the UNIQUE (stream, revision) constraint
 * rejects any second writer of a revision regardless (mapped to WrongExpectedRevision).
 */
export function sqlEventStore(db: SqlDriver, opts: SqlEventStoreOptions = {}): EventStoreWithProjections {
  const doorbell = new Doorbell();
  const subscriptions = new Set<Subscription>();
  let stopWatching: Promise<() => Promise<void>> | undefined;

  const translate = (err: unknown) => db.translateError(err);

  async function append(stream: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    assertEventIds(
      stream,
      events.map((e) => e.id),
    );
    const result = await appendGrouped({ stream, events, expected });
    if (events.length > 0) doorbell.ring(stream);
    return result;
  }

  // Concurrent appends (to any streams) share one transaction: see group-commit.ts.
  const appendGrouped = groupCommit<AppendRequest, AppendResult>(
    (batch) => commitBatch(db, batch),
    opts.maxAppendBatch ?? 256,
  );

  async function readStream(stream: string): Promise<RecordedEvent[]> {
    try {
      return (await db.query<EventRow>(READ_STREAM, [stream])).map(toRecordedEvent);
    } catch (err) {
      throw translate(err);
    }
  }

  async function readFirstField(stream: string, field: string): Promise<unknown> {
    try {
      const [row] = await db.query<{ value: unknown }>(READ_FIRST_FIELD, [stream, field]);
      return row === undefined ? undefined : (row.value ?? null);
    } catch (err) {
      throw translate(err);
    }
  }

  async function readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]> {
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`readAll limit must be a non-negative integer, got ${limit}`);
    try {
      return (await db.query<EventRow>(READ_ALL, [from.toString(), limit])).map(toRecordedEvent);
    } catch (err) {
      throw translate(err);
    }
  }

  function subscribeAll(from: GlobalPosition, onEvent: (e: RecordedEvent) => void | Promise<void>): Subscription {
    stopWatching ??= db
      .watchOtherWriters(() => doorbell.ring())
      .catch((err) => {
        opts.log?.warn({ err }, 'cannot watch for other writers; subscriptions fall back to polling');
        return async () => {};
      });
    return heldSubscription(subscriptions, {
      readAll,
      from,
      onEvent,
      doorbell,
      pollMs: opts.pollMs ?? 1_000,
      log: opts.log,
    });
  }

  function heard(wake: (stream: string | undefined) => void): () => void {
    stopWatching ??= db.watchOtherWriters(() => doorbell.ring()).catch(() => async () => {});
    return doorbell.listen(wake);
  }

  return {
    kind: db.kind,
    append,
    readStream,
    readFirstField,
    readAll,
    subscribeAll,
    sql: db,
    onAppend: (wake) => heard(() => wake()),
    onStreamAppend: (stream, wake) => heard((appended) => (appended === undefined || appended === stream) && wake()),
    async close() {
      await Promise.all([...subscriptions].map((s) => s.close()));
      if (stopWatching) await (await stopWatching)();
      await db.close();
    },
  };
}

/** One group-commit batch: every request in one transaction, each with its own outcome. */
async function commitBatch(db: SqlDriver, batch: readonly AppendRequest[]): Promise<Outcome<AppendResult>[]> {
  try {
    // The lock travels with BEGIN and the announcement with COMMIT: a batch of n appends is n + 2
    // round trips on PostgreSQL (docs/decisions.md, "One walk for a paid redemption").
    const announce = batch.some((r) => r.events.length > 0) ? db.announceAppendSql : undefined;
    return await db.transaction(
      async (tx) => {
        const atHeads = await insertAtHeads(tx, batch);
        const outcomes: Outcome<AppendResult>[] = [];
        for (const [i, r] of batch.entries()) {
          const inserted = atHeads.inserted.get(i);
          if (inserted) {
            outcomes.push({ ok: true, value: inserted });
            continue;
          }
          try {
            const tried = atHeads.tried.has(i);
            outcomes.push({ ok: true, value: await appendInTransaction(tx, r.stream, r.events, r.expected, tried) });
          } catch (err) {
            // Decided by the reads before any insert, so nothing of this request was written.
            if (!(err instanceof WrongExpectedRevision)) throw err;
            outcomes.push({ ok: false, error: err });
          }
        }
        return outcomes;
      },
      { first: APPEND_ORDER_LOCK, ...(announce ? { last: announce } : {}) },
    );
  } catch (err) {
    if (batch.length === 1) return [{ ok: false, error: await failureOf(db, batch[0]!, err) }];
    // A database error aborts the whole transaction: each request then commits on its own, so the
    // failure stays with the request that caused it.
    const outcomes: Outcome<AppendResult>[] = [];
    for (const r of batch) outcomes.push((await commitBatch(db, [r]))[0]!);
    return outcomes;
  }
}

async function failureOf(db: SqlDriver, r: AppendRequest, err: unknown): Promise<unknown> {
  if (!isUniqueViolation(err)) return db.translateError(err);
  // Only reachable if another writer bypassed the append-order lock; the constraint still decides.
  const head = await readHead(db, r.stream);
  return new WrongExpectedRevision(r.stream, r.expected, head === NO_STREAM ? 'no_stream' : head);
}

/**
 * The batch's common case in one statement: every request that expects a revision and brings events, on a
 * stream no other request of the batch names, inserted where its stream's head is what it expected. A batch
 * of n such appends is then one round trip inside the transaction instead of n. `tried` are the requests the
 * statement covered; those it did not insert (a conflict, a retry) are taken one by one as before.
 */
async function insertAtHeads(
  tx: SqlQueryable,
  batch: readonly AppendRequest[],
): Promise<{ inserted: Map<number, AppendResult>; tried: Set<number> }> {
  const inserted = new Map<number, AppendResult>();
  const tried = new Set<number>();
  const named = new Map<string, number>();
  for (const r of batch) named.set(r.stream, (named.get(r.stream) ?? 0) + 1);
  const candidates = [...batch.entries()].filter(
    ([, r]) => r.expected !== 'any' && r.events.length > 0 && named.get(r.stream) === 1,
  );
  // A lone append keeps its own statement: nothing to share.
  if (candidates.length < 2) return { inserted, tried };
  const firstOf = (r: AppendRequest) => firstRevision(r.expected as Exclude<ExpectedRevision, 'any'>);
  const requests = candidates.map(
    ([i, r]) => `{"i":${i},"stream":${JSON.stringify(r.stream)},"first":${firstOf(r)},"events":${payloadOf(r.events)}}`,
  );
  const rows = await tx.query<{ stream: string; position: string }>(INSERT_EVENTS_AT_HEADS, [
    `[${requests.join(',')}]`,
  ]);
  const last = new Map<string, bigint>();
  for (const row of rows) {
    const p = BigInt(row.position);
    if (p > (last.get(row.stream) ?? 0n)) last.set(row.stream, p);
  }
  for (const [i, r] of candidates) {
    tried.add(i);
    const position = last.get(r.stream);
    if (position !== undefined)
      inserted.set(i, { nextExpectedRevision: firstOf(r) + BigInt(r.events.length) - 1n, position });
  }
  return { inserted, tried };
}

/**
 * One request inside a batch's transaction, which already holds the append-order lock. `atHeadTried`: the
 * batch's statement already found its stream elsewhere than expected, so the at-head insert is not asked again.
 */
async function appendInTransaction(
  tx: SqlQueryable,
  stream: string,
  events: NewEvent[],
  expected: ExpectedRevision,
  atHeadTried = false,
): Promise<AppendResult> {
  if (expected !== 'any' && events.length > 0 && !atHeadTried) {
    // The common case, one round trip: the stream is where the writer expected it.
    const first = firstRevision(expected);
    const rows = await tx.query<{ position: string }>(INSERT_EVENTS_AT_HEAD, [
      stream,
      first.toString(),
      payloadOf(events),
    ]);
    if (rows.length > 0) return { nextExpectedRevision: first + BigInt(events.length) - 1n, position: lastOf(rows) };
  }
  const head = await readHead(tx, stream);
  const ids = events.map((e) => e.id.toLowerCase());

  if (expected === 'any') {
    const retried = await alreadyAppendedAnywhere(tx, stream, ids);
    if (retried) return retried;
  } else if (expected !== (head === NO_STREAM ? 'no_stream' : head)) {
    const start = firstRevision(expected);
    const retried = await alreadyAppendedAt(tx, stream, start, ids);
    if (retried) return retried;
    throw new WrongExpectedRevision(stream, expected, head === NO_STREAM ? 'no_stream' : head);
  }

  if (events.length === 0) return { nextExpectedRevision: head, position: await lastPosition(tx, stream) };
  const rows = await tx.query<{ position: string }>(INSERT_EVENTS, [stream, (head + 1n).toString(), payloadOf(events)]);
  return { nextExpectedRevision: head + BigInt(events.length), position: lastOf(rows) };
}

/** The revision an append expecting `expected` writes its first event at. */
const firstRevision = (expected: Exclude<ExpectedRevision, 'any'>): bigint =>
  expected === 'no_stream' ? 0n : expected + 1n;

async function readHead(db: SqlQueryable, stream: string): Promise<bigint> {
  const [row] = await db.query<{ revision: string | null }>(STREAM_HEAD, [stream]);
  return row?.revision == null ? NO_STREAM : BigInt(row.revision);
}

async function lastPosition(db: SqlQueryable, stream: string): Promise<GlobalPosition> {
  const [row] = await db.query<{ position: string | null }>(LAST_POSITION_OF_STREAM, [stream]);
  return row?.position == null ? 0n : BigInt(row.position);
}

/** A retry of an append that already landed at `start`: same ids, same order, same place. */
async function alreadyAppendedAt(
  db: SqlQueryable,
  stream: string,
  start: bigint,
  ids: string[],
): Promise<AppendResult | undefined> {
  if (ids.length === 0) return undefined;
  const rows = await db.query<PositionedIdRow>(STREAM_FROM_REVISION, [stream, start.toString(), ids.length]);
  return sameRun(rows, ids);
}

async function alreadyAppendedAnywhere(
  db: SqlQueryable,
  stream: string,
  ids: string[],
): Promise<AppendResult | undefined> {
  if (ids.length === 0) return undefined;
  const rows = await db.query<PositionedIdRow>(STREAM_EVENTS_WITH_IDS, [stream, JSON.stringify(ids)]);
  return sameRun(rows, ids);
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    data: row.data,
    metadata: row.metadata ?? {},
    created: row.created instanceof Date ? row.created : new Date(row.created),
  };
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === UNIQUE_VIOLATION;
}

const payloadOf = (events: NewEvent[]) =>
  JSON.stringify(events.map((e) => ({ id: e.id, type: e.type, data: e.data ?? null, metadata: e.metadata ?? {} })));

/** The highest position among inserted rows. */
const lastOf = (rows: { position: string }[]) =>
  rows.reduce((max, r) => (BigInt(r.position) > max ? BigInt(r.position) : max), 0n);
