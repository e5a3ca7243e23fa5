import test from 'ava';
import { sqliteText } from '../../src/store/sqlite/sqlite-dialect.js';

// What the SQLite driver reads of PostgreSQL's spelling (src/store/sqlite/sqlite-dialect.ts): placeholders and
// casts, so a statement that differs only there is written once.

test('placeholders become numbered ones and casts become CAST, around names, calls and parameters', (t) => {
  t.is(
    sqliteText(`SELECT coalesce(sum(settled_amount_micro::numeric), 0)::text AS r FROM t WHERE p = $2::bigint`),
    'SELECT CAST(coalesce(sum(CAST(settled_amount_micro AS NUMERIC)), 0) AS TEXT) AS r ' +
      'FROM t WHERE p = CAST(?2 AS INTEGER)',
  );
  t.is(
    sqliteText(`SELECT c.position::text FROM c WHERE x = $10`),
    `SELECT CAST(c.position AS TEXT) FROM c WHERE x = ?10`,
  );
  t.is(sqliteText(`SELECT '[]'::jsonb, $1::text[]`), `SELECT '[]', ?1`, 'JSON, arrays: text as they are');
});

test('a cast SQLite has no type for is an error, not passed through unread', (t) => {
  t.throws(() => sqliteText(`SELECT now()::timestamptz`), { message: /no cast for ::timestamptz/ });
});
