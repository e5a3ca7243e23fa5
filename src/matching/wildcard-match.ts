// Linear-time matching of RFC 9309 path patterns: `*` is any run of octets (including "/"), a final
// `$` anchors at the end, everything else is literal and matched as a prefix. Pure.
//
// A backtracking RegExp (`.*` per `*`) costs about the fourth power of the path on a pattern such as
// `/*a*a*a*ab`, and publishers' patterns are untrusted input. A `*`-only glob needs no backtracking:
// the first piece is a prefix, each middle piece is taken at its leftmost occurrence after the
// previous one (a later occurrence can only leave less room for the rest), and an anchored last piece
// is a suffix. Each search is Knuth–Morris–Pratt, so one match reads each path octet a bounded
// number of times: O(|path| + |pattern|) whatever the pattern.
//
//   const p = compileWildcard('/news/*/2026$');
//   matchWildcard(p, '/news/world/2026'); // true
//
// Pieces arrive already in comparison form (see rfc9309-octets.ts); this module knows only octets.

/** Caps on what a publisher's pattern may be (docs/decisions.md "Pattern matching"); over them, a
 *  pattern is not matched at all but reported, so a reading that depends on it is UNKNOWN. */
export const WILDCARD_LIMITS = { maxPatternChars: 2048, maxWildcards: 64 } as const;

export interface CompiledWildcard {
  /** Literal pieces between the `*`s: pieces.length = wildcards + 1. */
  pieces: readonly string[];
  /** KMP failure tables, one per piece. */
  tables: readonly Int32Array[];
  anchored: boolean;
  /** Literal octets (the sum of the pieces' lengths). */
  literal: number;
}

/** @param pieces the pattern split on `*`, each in comparison form; `anchored` when it ended in `$` */
export function compileWildcard(pieces: readonly string[], anchored: boolean): CompiledWildcard {
  return {
    pieces,
    tables: pieces.map(failureTable),
    anchored,
    literal: pieces.reduce((n, p) => n + p.length, 0),
  };
}

export function matchWildcard(p: CompiledWildcard, path: string): boolean {
  const { pieces, tables, anchored } = p;
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  const last = pieces.length - 1;
  // An anchored last piece must fit at the end, after everything before it.
  const end = anchored ? path.length - pieces[last]!.length : path.length;
  if (end < first.length) return false;
  let pos = first.length;
  for (let i = 1; i < (anchored ? last : pieces.length); i++) {
    const at = searchKmp(path, pieces[i]!, tables[i]!, pos, end);
    if (at < 0) return false;
    pos = at + pieces[i]!.length;
  }
  return anchored ? pos <= end && path.endsWith(pieces[last]!) : true;
}

/** Work one match may do, in octets read: what a budget is charged (see evaluation-budget.ts). A
 *  pattern without `*` is a prefix (or, anchored, an equality): it reads at most its own length. */
export function matchCost(p: CompiledWildcard, path: string): number {
  if (p.pieces.length === 1) return Math.min(p.literal, path.length) + 1;
  return path.length + p.literal + p.pieces.length;
}

function failureTable(needle: string): Int32Array {
  const table = new Int32Array(needle.length);
  let k = 0;
  for (let i = 1; i < needle.length; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = table[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    table[i] = k;
  }
  return table;
}

let comparisons = 0;

/** Octet comparisons made by searches since the last call (tests hold the matcher linear with it). */
export function takeComparisons(): number {
  const n = comparisons;
  comparisons = 0;
  return n;
}

/** Leftmost index ≥ from where `needle` lies wholly before `end`, or -1. */
function searchKmp(hay: string, needle: string, table: Int32Array, from: number, end: number): number {
  if (needle.length === 0) return from <= end ? from : -1;
  let k = 0;
  let n = 0;
  for (let i = from; i < end; i++) {
    const c = hay.charCodeAt(i);
    while (k > 0 && c !== needle.charCodeAt(k)) {
      k = table[k - 1]!;
      n++;
    }
    n++;
    if (c === needle.charCodeAt(k)) k++;
    if (k === needle.length) {
      comparisons += n;
      return i - needle.length + 1;
    }
  }
  comparisons += n;
  return -1;
}
