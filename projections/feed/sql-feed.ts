import { inDialect, type InDialects, type SqlDriver } from '../../src/store/sql-driver.js';
import { deliveredFactsFromData, incompleteDelivered } from './delivered-digests.js';
import type { RawFactEvent } from './fact-event.js';
import type { FactFeed } from './feed.js';

// The feed of a SQL event store: reads only the small facts column (never the events' data) and
// ships a whole page as one JSON text, which is several times faster than row by row on PGlite. On SQLite
// the column is `facts`, computed at append (src/store/sqlite/sqlite-event-store.ts).

// The page is assembled as text: json_agg/json_build_array cost the database ~10 µs per event, plain
// concatenation of the stored facts text about a fifth of that.
const PAGE: InDialects = {
  postgres: `
  SELECT '[' || coalesce(string_agg(
           '["' || p.position::text || '",' || to_json(p.stream)::text || ',' || to_json(p.type)::text || ','
           || coalesce(p.facts_v5::text, 'null') || ',' || to_json(p.created)::text || ']',
         ',' ORDER BY p.position), '') || ']' AS page
  FROM (SELECT position, stream, type, facts_v5, created FROM events WHERE position > $1::bigint
    ORDER BY events.position LIMIT $2) p`,
  sqlite: `
  SELECT '[' || coalesce(group_concat(
           '["' || p.position || '",' || json_quote(p.stream) || ',' || json_quote(p.type) || ','
           || coalesce(p.facts, 'null') || ',' || json_quote(p.created) || ']',
         ',' ORDER BY p.position), '') || ']' AS page
  FROM (SELECT position, stream, type, facts, created FROM events WHERE position > $1
    ORDER BY events.position LIMIT $2) p`,
};

const DATA_AT: InDialects = {
  postgres: `SELECT position::text AS position, data FROM events WHERE position = ANY($1::bigint[])`,
  sqlite: `SELECT position, data FROM events WHERE position IN (SELECT CAST(value AS INTEGER) FROM json_each($1))`,
};

type Row = [string, string, string, unknown, string];

export function sqlFactFeed(db: SqlDriver): FactFeed {
  return {
    async read(from, limit) {
      const [r] = await db.query<{ page: string }>(inDialect(db, PAGE), [from.toString(), limit]);
      const events: RawFactEvent[] = (JSON.parse(r?.page ?? '[]') as Row[]).map(
        ([position, stream, type, facts, created]) => ({
          position: BigInt(position),
          stream,
          type,
          facts,
          created,
        }),
      );
      const incomplete = events.filter((e) => e.facts !== null && incompleteDelivered(e.type, e.facts));
      if (incomplete.length > 0) {
        const rows = await db.query<{ position: string; data: unknown }>(inDialect(db, DATA_AT), [
          incomplete.map((e) => e.position.toString()),
        ]);
        // SQLite keeps the data as text.
        const parsed = (data: unknown) => (typeof data === 'string' ? JSON.parse(data) : data);
        const data = new Map(rows.map((row) => [BigInt(row.position), parsed(row.data)]));
        for (const e of incomplete) e.facts = deliveredFactsFromData(data.get(e.position));
      }
      return events;
    },
    async head() {
      const [r] = await db.query<{ head: string | null }>(`SELECT max(position)::text AS head FROM events`);
      return BigInt(r?.head ?? '0');
    },
  };
}
