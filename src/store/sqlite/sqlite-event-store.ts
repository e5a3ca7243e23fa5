import type {
  DatabaseSyncInstance as DatabaseSync,
  StatementSyncInstance as StatementSync,
} from '@photostructure/sqlite';
import { deliveredFactsFromData, incompleteDelivered } from '../../../projections/feed/delivered-digests.js';
import { factsOf } from '../../../projections/feed/event-facts.js';
import type { Logger } from '../../runtime/log.js';
import { heldSubscription } from '../catch-up-subscription.js';
import { Doorbell } from '../doorbell.js';
import { assertEventIds } from '../event-id.js';
import type { EventStoreWithProjections } from '../store-with-projections.js';
import {
  WrongExpectedRevision,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type Subscription,
} from '../port.js';
import type { SqliteDriver } from './sqlite-driver.js';
import { sameRun } from '../same-run.js';

// The event store port on SQLite (docs/decisions.md, "SQLite, the embedded engine"). SQLite is synchronous and
// in this process: an append is one transaction run to its end on the calling thread, so appends are
// serialized without an advisory lock and positions become visible in the order they are drawn (what
// PostgreSQL's append-order lock is for: src/store/sql/statements.ts). No group commit either: with WAL and
// `synchronous = NORMAL` a commit does not wait for the disk, so a transaction per append costs little.
//
// The facts column (what the read models are built from: projections/feed/sql-feed.ts) is computed here in
// JavaScript at append, by the very extraction EventStoreDB's feed uses (projections/feed/event-facts.ts),
// where PostgreSQL computes it in SQL (src/store/sql/event-facts-sql.ts); a Delivered event written without its
// digests gets them from its data at once.

/** The SQLite schema, by `PRAGMA user_version`. Append-only: never edit one that has shipped, add the next. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE events (
     position INTEGER PRIMARY KEY AUTOINCREMENT,
     stream   TEXT    NOT NULL,
     revision INTEGER NOT NULL CHECK (revision >= 0),
     id       TEXT    NOT NULL,
     type     TEXT    NOT NULL,
     data     TEXT    NOT NULL,
     metadata TEXT    NOT NULL,
     created  TEXT    NOT NULL,
     facts    TEXT,
     UNIQUE (stream, revision))`,
];

export function migrateSqlite(db: DatabaseSync): void {
  const at = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (at >= SQLITE_MIGRATIONS.length) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    for (let v = at; v < SQLITE_MIGRATIONS.length; v++) db.exec(SQLITE_MIGRATIONS[v]!);
    db.exec(`PRAGMA user_version = ${SQLITE_MIGRATIONS.length}`);
    db.exec('COMMIT');
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

interface Row {
  position: number;
  stream: string;
  revision: number;
  id: string;
  type: string;
  data: string;
  metadata: string;
  created: string;
}
type PlacedId = Pick<Row, 'id' | 'revision' | 'position'>;

const NO_STREAM = -1n;
const COLUMNS = 'position, stream, revision, id, type, data, metadata, created';

export function sqliteEventStore(
  db: DatabaseSync,
  driver: SqliteDriver,
  opts: { log?: Logger; pollMs?: number } = {},
): EventStoreWithProjections {
  const q = statements(db);
  const doorbell = new Doorbell();
  const subscriptions = new Set<Subscription>();
  const readAll = async (from: bigint, limit: number) => {
    if (!Number.isInteger(limit) || limit < 0)
      throw new RangeError(`readAll limit must be a non-negative integer, got ${limit}`);
    return (q.all.all(from, limit) as unknown as Row[]).map(recorded);
  };
  const listen = (wake: (stream: string | undefined) => void) => doorbell.listen(wake);

  return {
    kind: 'embedded',
    async append(stream, events, expected) {
      assertEventIds(
        stream,
        events.map((e) => e.id),
      );
      // A read-model transaction open across its awaits holds the connection: the append waits for its end.
      for (let busy = driver.whenFree(); busy; busy = driver.whenFree()) await busy;
      const result = appendNow(db, q, stream, events, expected);
      if (events.length > 0) doorbell.ring(stream);
      return result;
    },
    readStream: async (stream) => (q.stream.all(stream) as unknown as Row[]).map(recorded),
    async readFirstField(stream, field) {
      const row = q.firstField.get(`$.${JSON.stringify(field)}`, stream) as { value: string | null } | undefined;
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
    sql: driver,
    onAppend: (wake) => listen(() => wake()),
    onStreamAppend: (stream, wake) => listen((appended) => (appended === undefined || appended === stream) && wake()),
    async close() {
      await Promise.all([...subscriptions].map((s) => s.close()));
      await driver.close();
    },
  };
}

function statements(db: DatabaseSync) {
  const s = (text: string): StatementSync => db.prepare(text);
  return {
    head: s('SELECT max(revision) AS revision FROM events WHERE stream = ?'),
    lastPosition: s('SELECT max(position) AS position FROM events WHERE stream = ?'),
    fromRevision: s(
      'SELECT id, revision, position FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?',
    ),
    withIds: s(
      'SELECT id, revision, position FROM events' +
        ' WHERE stream = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY revision',
    ),
    insert: s(
      'INSERT INTO events (stream, revision, id, type, data, metadata, created, facts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    stream: s(`SELECT ${COLUMNS} FROM events WHERE stream = ? ORDER BY revision`),
    firstField: s('SELECT data -> ? AS value FROM events WHERE stream = ? AND revision = 0'),
    all: s(`SELECT ${COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`),
  };
}

/** One append in one transaction that takes SQLite's write lock at BEGIN (IMMEDIATE). */
function appendNow(
  db: DatabaseSync,
  q: ReturnType<typeof statements>,
  stream: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): AppendResult {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = appendInTransaction(q, stream, events, expected);
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

function appendInTransaction(
  q: ReturnType<typeof statements>,
  stream: string,
  events: NewEvent[],
  expected: ExpectedRevision,
): AppendResult {
  const top = (q.head.get(stream) as { revision: number | null }).revision;
  const head = top === null ? NO_STREAM : BigInt(top);
  const ids = events.map((e) => e.id.toLowerCase());
  const actual = head === NO_STREAM ? 'no_stream' : head;
  if (expected === 'any') {
    const retried = ids.length > 0 ? sameRun(q.withIds.all(stream, JSON.stringify(ids)) as PlacedId[], ids) : undefined;
    if (retried) return retried;
  } else if (expected !== actual) {
    const start = expected === 'no_stream' ? 0n : expected + 1n;
    const retried =
      ids.length > 0 ? sameRun(q.fromRevision.all(stream, start, ids.length) as PlacedId[], ids) : undefined;
    if (retried) return retried;
    throw new WrongExpectedRevision(stream, expected, actual);
  }
  if (events.length === 0) {
    const last = (q.lastPosition.get(stream) as { position: number | null }).position;
    return { nextExpectedRevision: head, position: last === null ? 0n : BigInt(last) };
  }
  const created = new Date().toISOString();
  let position = 0n;
  for (const [i, e] of events.entries()) {
    const data = e.data ?? null;
    const r = q.insert.run(
      stream,
      head + 1n + BigInt(i),
      ids[i]!,
      e.type,
      JSON.stringify(data),
      JSON.stringify(e.metadata ?? {}),
      created,
      factsText(stream, e.type, data),
    );
    position = BigInt(r.lastInsertRowid);
  }
  return { nextExpectedRevision: head + BigInt(events.length), position };
}

/** The facts column's text: null for streams no read model follows. */
export function factsText(stream: string, type: string, data: unknown): string | null {
  const facts = factsOf(stream, type, data);
  if (facts === null) return null;
  return JSON.stringify(incompleteDelivered(type, facts) ? deliveredFactsFromData(data) : facts);
}

function recorded(row: Row): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    type: row.type,
    revision: BigInt(row.revision),
    position: BigInt(row.position),
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    created: new Date(row.created),
  };
}
