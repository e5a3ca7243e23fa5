import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Logger } from '../../runtime/log.js';
import { heldSubscription } from '../catch-up-subscription.js';
import { Doorbell } from '../doorbell.js';
import { lockDirectory } from '../embedded/lockfile.js';
import { assertEventIds } from '../event-id.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import {
  WrongExpectedRevision,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../port.js';

// The event store port on SQLite (better-sqlite3), measured beside PGlite as the native embedded engine
// (docs/decisions.md, "The embedded engine"). It holds the events only: the read models' SQL
// (projections/) is PostgreSQL's and does not run here, so the service does not open it; the benchmarks
// and the conformance suite do. SQLite is synchronous and in-process: a statement runs on the calling
// thread, and one transaction at a time, so appends are serialized without an advisory lock.

export const SQLITE_FILE = 'events.sqlite';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream   TEXT    NOT NULL,
    revision INTEGER NOT NULL CHECK (revision >= 0),
    id       TEXT    NOT NULL,
    type     TEXT    NOT NULL,
    data     TEXT    NOT NULL,
    metadata TEXT    NOT NULL,
    created  TEXT    NOT NULL,
    UNIQUE (stream, revision))`;

interface Row {
  position: bigint;
  stream: string;
  revision: bigint;
  id: string;
  type: string;
  data: string;
  metadata: string;
  created: string;
}

const NO_STREAM = -1n;

export async function openSqliteEventStore(
  dir: string,
  opts: { log?: Logger; pollMs?: number } = {},
): Promise<EventStore & Required<Pick<EventStoreWithProjections, 'onAppend' | 'onStreamAppend'>>> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let db: Database.Database;
  try {
    db = new Database(path.join(dir, SQLITE_FILE));
    // WAL: readers never wait for the writer; NORMAL syncs at checkpoints, not every commit (a power cut may
    // lose the last commits, never corrupt the file).
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.defaultSafeIntegers(true);
    db.exec(SCHEMA);
  } catch (err) {
    await lock.release();
    throw err;
  }
  const q = statements(db);
  const appendNow = appender(db, q);
  const doorbell = new Doorbell();
  const subscriptions = new Set<Subscription>();
  const readAll = async (from: bigint, limit: number) => {
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`readAll limit must be a non-negative integer, got ${limit}`);
    return q.all.all(from, limit).map(recorded);
  };

  return {
    kind: 'embedded',
    async append(stream, events, expected) {
      assertEventIds(
        stream,
        events.map((e) => e.id),
      );
      const result = appendNow(stream, events, expected);
      if (events.length > 0) doorbell.ring(stream);
      return result;
    },
    readStream: async (stream) => q.stream.all(stream).map(recorded),
    async readFirstField(stream, field) {
      const row = q.firstField.get(`$.${JSON.stringify(field)}`, stream);
      return row === undefined ? undefined : row.value === null ? null : JSON.parse(row.value);
    },
    readAll,
    subscribeAll(from, onEvent) {
      return heldSubscription(subscriptions, {
        readAll,
        from,
        onEvent,
        doorbell,
        pollMs: opts.pollMs ?? 1_000,
        log: opts.log,
      });
    },
    onAppend: (wake: () => void) => doorbell.listen(() => wake()),
    onStreamAppend(stream, wake) {
      return doorbell.listen((appended) => {
        if (appended === undefined || appended === stream) wake();
      });
    },
    async close() {
      await Promise.all([...subscriptions].map((s) => s.close()));
      try {
        if (db.open) db.close();
      } finally {
        await lock.release();
      }
    },
  };
}

function statements(db: Database.Database) {
  return {
    head: db.prepare<[string], { revision: bigint | null }>(
      'SELECT max(revision) AS revision FROM events WHERE stream = ?',
    ),
    lastPosition: db.prepare<[string], { position: bigint | null }>(
      'SELECT max(position) AS position FROM events WHERE stream = ?',
    ),
    fromRevision: db.prepare<[string, bigint, number], Pick<Row, 'id' | 'revision' | 'position'>>(
      'SELECT id, revision, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?',
    ),
    withIds: db.prepare<[string, string], Pick<Row, 'id' | 'revision' | 'position'>>(
      'SELECT id, revision, position FROM events' +
        ' WHERE stream = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY revision',
    ),
    insert: db.prepare<[string, bigint, string, string, string, string, string]>(
      'INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    stream: db.prepare<[string], Row>('SELECT * FROM events WHERE stream = ? ORDER BY revision'),
    firstField: db.prepare<[string, string], { value: string | null }>(
      'SELECT data -> ? AS value FROM events WHERE stream = ? AND revision = 0',
    ),
    all: db.prepare<[bigint, number], Row>('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?'),
  };
}

/** One append, in a transaction that takes SQLite's write lock at BEGIN (IMMEDIATE): appends are serialized. */
function appender(db: Database.Database, q: ReturnType<typeof statements>) {
  return db
    .transaction((stream: string, events: NewEvent[], expected: ExpectedRevision): AppendResult => {
      const head = q.head.get(stream)?.revision ?? NO_STREAM;
      const ids = events.map((e) => e.id.toLowerCase());
      const actual = head === NO_STREAM ? 'no_stream' : head;
      if (expected === 'any') {
        const retried = ids.length > 0 ? sameRun(q.withIds.all(stream, JSON.stringify(ids)), ids) : undefined;
        if (retried) return retried;
      } else if (expected !== actual) {
        const start = expected === 'no_stream' ? 0n : expected + 1n;
        const retried = ids.length > 0 ? sameRun(q.fromRevision.all(stream, start, ids.length), ids) : undefined;
        if (retried) return retried;
        throw new WrongExpectedRevision(stream, expected, actual);
      }
      if (events.length === 0)
        return { nextExpectedRevision: head, position: q.lastPosition.get(stream)?.position ?? 0n };
      const created = new Date().toISOString();
      let position = 0n;
      for (const [i, e] of events.entries()) {
        const r = q.insert.run(
          stream,
          head + 1n + BigInt(i),
          ids[i]!,
          e.type,
          JSON.stringify(e.data ?? null),
          JSON.stringify(e.metadata ?? {}),
          created,
        );
        position = BigInt(r.lastInsertRowid);
      }
      return { nextExpectedRevision: head + BigInt(events.length), position };
    })
    .immediate.bind(null);
}

function sameRun(rows: Pick<Row, 'id' | 'revision' | 'position'>[], ids: string[]): AppendResult | undefined {
  if (rows.length !== ids.length) return undefined;
  for (const [i, row] of rows.entries()) {
    if (row.id !== ids[i]) return undefined;
    if (i > 0 && row.revision !== rows[i - 1]!.revision + 1n) return undefined;
  }
  const last = rows[rows.length - 1]!;
  return { nextExpectedRevision: last.revision, position: last.position };
}

function recorded(row: Row): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    revision: row.revision,
    position: row.position,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    created: new Date(row.created),
  };
}
