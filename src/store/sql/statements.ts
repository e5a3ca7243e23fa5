// SQL shared by the embedded (PGlite) and PostgreSQL adapters. Bigints travel as text both ways
// (ORDER BY names the table column: a bare name would sort by the text alias):
// PGlite returns int8 as a JS number, which loses precision past 2^53.

/**
 * Global ordering. Every append takes this transaction-scoped advisory lock before it draws
 * positions, and PostgreSQL releases it only after the commit is visible. So positions are
 * assigned and become visible in the same order: once a reader sees position p, every committed
 * position below p is already visible, and `readAll(from)` can never skip an event that commits
 * "late" with a lower position (the sequence-gap problem of BIGSERIAL event tables).
 * Keyed on the schema so separate stores in one database do not wait for each other.
 * Cost: appends are serialized per store, like EventStoreDB's single writer.
 */
export const APPEND_ORDER_LOCK = `SELECT pg_advisory_xact_lock(hashtext('rights-preflight.append'),
  hashtext(coalesce(current_schema(), '')))`;

export const STREAM_HEAD = `SELECT max(revision)::text AS revision FROM events WHERE stream = $1`;

export const LAST_POSITION_OF_STREAM = `SELECT max(position)::text AS position FROM events WHERE stream = $1`;

/** The events from revision $2 on, to compare their ids with a retried append. */
export const STREAM_FROM_REVISION = `
  SELECT id::text AS id, revision::text AS revision, position::text AS position
  FROM events WHERE stream = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`;

/** Where, if anywhere, these ids already sit in the stream (idempotent retry with expected 'any'). */
export const STREAM_EVENTS_WITH_IDS = `
  SELECT id::text AS id, revision::text AS revision, position::text AS position
  FROM events WHERE stream = $1 AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($2::jsonb))
  ORDER BY events.revision`;

/** $3 is a JSON array of {id, type, data, metadata}; ORDER BY ord makes positions follow the array. */
export const INSERT_EVENTS = `
  INSERT INTO events (stream, revision, id, type, data, metadata)
  SELECT $1, $2::bigint + x.ord - 1, (x.ev->>'id')::uuid, x.ev->>'type',
         coalesce(x.ev->'data', 'null'::jsonb), coalesce(x.ev->'metadata', '{}'::jsonb)
  FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(ev, ord)
  ORDER BY x.ord
  RETURNING position::text AS position`;

/**
 * INSERT_EVENTS when the stream's head is $2 - 1 (the expected revision), else nothing: the head check and
 * the insert in one round trip. Under the append-order lock nothing can move the head in between; no row
 * back means "not at that revision", and the caller looks closer (an idempotent retry, or a conflict).
 */
export const INSERT_EVENTS_AT_HEAD = `
  INSERT INTO events (stream, revision, id, type, data, metadata)
  SELECT $1, $2::bigint + x.ord - 1, (x.ev->>'id')::uuid, x.ev->>'type',
         coalesce(x.ev->'data', 'null'::jsonb), coalesce(x.ev->'metadata', '{}'::jsonb)
  FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(ev, ord)
  WHERE (SELECT coalesce(max(revision), -1) FROM events WHERE stream = $1) = $2::bigint - 1
  ORDER BY x.ord
  RETURNING position::text AS position`;

/**
 * INSERT_EVENTS_AT_HEAD for many streams in one statement (a group commit's batch: docs/decisions.md, "Settled
 * and Delivered in one append"). $1 is a JSON array of {i, stream, first, events}, each stream at most once;
 * a request whose stream is not at `first - 1` inserts nothing (the caller then takes it alone). Rows are
 * numbered in request order, then event order, as appending the requests one after another would.
 */
export const INSERT_EVENTS_AT_HEADS = `
  INSERT INTO events (stream, revision, id, type, data, metadata)
  SELECT r.stream, r.first + x.ord - 1, (x.ev->>'id')::uuid, x.ev->>'type',
         coalesce(x.ev->'data', 'null'::jsonb), coalesce(x.ev->'metadata', '{}'::jsonb)
  FROM jsonb_to_recordset($1::jsonb) AS r(i int, stream text, first bigint, events jsonb)
  CROSS JOIN LATERAL jsonb_array_elements(r.events) WITH ORDINALITY AS x(ev, ord)
  WHERE (SELECT coalesce(max(revision), -1) FROM events e WHERE e.stream = r.stream) = r.first - 1
  ORDER BY r.i, x.ord
  RETURNING stream, position::text AS position`;

const EVENT_COLUMNS = `position::text AS position, stream, revision::text AS revision, id::text AS id,
  type, data, metadata, created`;

export const READ_STREAM = `SELECT ${EVENT_COLUMNS} FROM events WHERE stream = $1 ORDER BY events.revision`;

/** One field of the first event's data: served by events_stream_revision, one index probe. */
export const READ_FIRST_FIELD = `SELECT data->$2 AS value FROM events WHERE stream = $1 AND revision = 0`;

export const READ_ALL = `SELECT ${EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY events.position LIMIT $2`;

export interface EventRow {
  position: string;
  stream: string;
  revision: string;
  id: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown> | null;
  created: Date | string;
}

export interface PositionedIdRow {
  id: string;
  revision: string;
  position: string;
}
