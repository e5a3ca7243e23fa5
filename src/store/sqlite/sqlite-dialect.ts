// What the SQLite driver rewrites in a statement written with PostgreSQL's placeholders and casts, so a
// statement that differs only there is written once (src/store/sql-driver.ts, `SqlQueryable.query`).
// Everything else that differs has SQLite text of its own beside PostgreSQL's (docs/decisions.md, "SQLite, the
// embedded engine").

/** PostgreSQL's cast types and SQLite's: a type missing here is an error, so no cast passes unread. */
const CASTS: Readonly<Record<string, string | null>> = {
  text: 'TEXT',
  bigint: 'INTEGER',
  integer: 'INTEGER',
  int: 'INTEGER',
  numeric: 'NUMERIC',
  // JSON travels as text in SQLite; an array parameter is bound as its JSON text (sqlite-driver.ts).
  json: null,
  jsonb: null,
  uuid: null,
  'text[]': null,
  'bigint[]': null,
};

const IDENT = /[A-Za-z0-9_$.]/;

/** `$n` → `?n`, `x::type` → `CAST(x AS TYPE)` (or `x` where SQLite has no such type). */
export function sqliteText(pg: string): string {
  let text = pg.replace(/\$(\d+)/g, '?$1');
  for (;;) {
    const at = text.indexOf('::');
    if (at < 0) return text;
    const type = /^([a-z]+(?:\[\])?)/.exec(text.slice(at + 2))?.[1];
    if (type === undefined || !(type in CASTS)) throw new TypeError(`SQLite: no cast for ::${type ?? '?'}`);
    const start = operandStart(text, at);
    const operand = text.slice(start, at);
    const sqlite = CASTS[type]!;
    const cast = sqlite === null ? operand : `CAST(${operand} AS ${sqlite})`;
    text = text.slice(0, start) + cast + text.slice(at + 2 + type.length);
  }
}

/** Where the operand of a cast ending at `end` begins: a name, a `?n`, or a call or parenthesis with its name. */
function operandStart(text: string, end: number): number {
  let i = end;
  if (text[i - 1] === ')') {
    let depth = 0;
    do {
      i--;
      if (text[i] === ')') depth++;
      else if (text[i] === '(') depth--;
    } while (depth > 0 && i > 0);
  } else if (text[i - 1] === "'") {
    i--;
    while (i > 0 && text[i - 1] !== "'") i--;
    return i - 1;
  }
  while (i > 0 && (IDENT.test(text[i - 1]!) || text[i - 1] === '?')) i--;
  return i;
}
