// `<content url>` matching (rsl.md §2.4): RFC 9309 path patterns with `*` (any run, including
// "/") and a trailing `$` (end anchor); plain prefix match otherwise; case-sensitive; matched
// against path and query. An absolute `url` must be on the resource's own origin, compared as an
// origin, never as a string prefix of the whole URL. Pure.

export interface ScopeMatch {
  matches: boolean;
  /** Higher is more specific: 2 × literal characters + 1 when anchored with `$` (naulon's rule). */
  specificity: number;
}

const NO_MATCH: ScopeMatch = { matches: false, specificity: -1 };

/**
 * @param pattern the `url` attribute as written
 * @param resource canonical resource URL
 * @param emptyMeansResource whether `url=""` is defined by the association (HTML link/script,
 *   the resource's own Link header, supplied XML) — then it means "this resource"; a document
 *   reached through robots.txt has no such scope and `url=""` governs nothing.
 */
export function matchContentUrl(pattern: string | null, resource: string, emptyMeansResource: boolean): ScopeMatch {
  if (pattern === null) return NO_MATCH;
  const target = new URL(resource);
  const targetPath = target.pathname + target.search;
  if (pattern === '') {
    return emptyMeansResource ? { matches: true, specificity: 2 * targetPath.length + 1 } : NO_MATCH;
  }
  let pathPattern = pattern;
  const absolute = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*)(.*)$/.exec(pattern);
  if (absolute) {
    let origin: string;
    try { origin = new URL(absolute[1]! + '/').origin; } catch { return NO_MATCH; }
    if (origin !== target.origin) return NO_MATCH;
    pathPattern = absolute[2] || '/';
  }
  if (!pathPattern.startsWith('/') && !pathPattern.startsWith('*')) return NO_MATCH;
  const normalized = normalizePattern(pathPattern);
  const anchored = normalized.endsWith('$');
  const body = anchored ? normalized.slice(0, -1) : normalized;
  const regex = new RegExp('^' + body.split('*').map(escapeRegex).join('.*') + (anchored ? '$' : ''), 's');
  if (!regex.test(targetPath)) return NO_MATCH;
  const literal = body.replace(/\*/g, '').length;
  return { matches: true, specificity: 2 * literal + (anchored ? 1 : 0) };
}

/** RFC 9309 §2.2.2: compare percent-encoded octets; encode raw non-ASCII, uppercase escapes. */
function normalizePattern(p: string): string {
  let out = '';
  for (const ch of p) {
    if (/[\x21-\x7e]/.test(ch)) out += ch;
    else out += encodeURIComponent(ch);
  }
  return out.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
