// `<content url>` matching (rsl.md §2.4): RFC 9309 path patterns with `*` (any run, including
// "/") and a trailing `$` (end anchor); plain prefix match otherwise; case-sensitive; matched
// against path and query. An absolute `url` must be on the resource's own origin, compared as an
// origin, never as a string prefix of the whole URL. Pure.
//
// Both sides are brought to one comparison form first (RFC 9309 §2.2.2, see rfc9309-octets.ts), so
// `/%7Eeditors/` matches `/~editors/` and `/a$b` matches `/a%24b`: a prohibition is never missed
// because publisher and buyer spelled the same path differently.

import type { EvaluationBudget } from './evaluation-budget.js';
import { comparisonForm } from './rfc9309-octets.js';
import { compileWildcard, matchCost, matchWildcard, WILDCARD_LIMITS, type CompiledWildcard } from './wildcard-match.js';

export interface ScopeMatch {
  matches: boolean;
  /** Higher is more specific: 2 × literal octets of the comparison form + 1 when anchored with `$` (naulon's rule). */
  specificity: number;
  /** Set when the pattern is over WILDCARD_LIMITS: it was not matched, so whether it applies is unknown. */
  overLimits?: string;
}

const NO_MATCH: ScopeMatch = { matches: false, specificity: -1 };

/**
 * @param pattern the `url` attribute as written
 * @param resource canonical resource URL
 * @param emptyMeansResource whether `url=""` is defined by the association (HTML link/script,
 *   the resource's own Link header, supplied XML) — then it means "this resource"; a document
 *   reached through robots.txt has no such scope and `url=""` governs nothing.
 */
export function matchContentUrl(
  pattern: string | null,
  resource: string,
  emptyMeansResource: boolean,
  budget?: EvaluationBudget,
  patterns?: PatternCache,
): ScopeMatch {
  if (pattern === null) return NO_MATCH;
  const { origin: targetOrigin, path: targetPath } = targetOf(resource);
  if (pattern === '') {
    return emptyMeansResource ? { matches: true, specificity: 2 * targetPath.length + 1 } : NO_MATCH;
  }
  let pathPattern = pattern;
  const absolute = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*)(.*)$/s.exec(pattern);
  if (absolute) {
    let origin: string;
    try {
      origin = new URL(absolute[1]! + '/').origin;
    } catch {
      return NO_MATCH;
    }
    if (origin !== targetOrigin) return NO_MATCH;
    pathPattern = absolute[2] || '/';
  }
  if (!pathPattern.startsWith('/') && !pathPattern.startsWith('*')) return NO_MATCH;
  // Only a final `$` anchors and only a raw `*` is a wildcard (RFC 9309 §2.2.3); each literal
  // piece between them is compared in the same form as the path.
  const compiled = patterns ? patterns.compiled(pathPattern, budget) : compiledPattern(pathPattern);
  if ('overLimits' in compiled) return { matches: false, specificity: -1, overLimits: compiled.overLimits };
  budget?.spend(matchCost(compiled.wildcard, targetPath));
  return matchWildcard(compiled.wildcard, targetPath) ? { matches: true, specificity: compiled.specificity } : NO_MATCH;
}

// A document's patterns are matched against every resource asked about, for every token: each is
// compiled once (bounded, emptied when full: patterns come from untrusted documents), and the last
// resource's parts are kept, since one evaluation asks about one resource many times.
const COMPILED_MAX = 4096;
type Compiled = { wildcard: CompiledWildcard; specificity: number } | { overLimits: string };
const compiled = new Map<string, Compiled>();
let lastTarget: { resource: string; origin: string; path: string } | undefined;

function targetOf(resource: string): { origin: string; path: string } {
  if (lastTarget?.resource !== resource) {
    const url = new URL(resource);
    lastTarget = { resource, origin: url.origin, path: comparisonForm(url.pathname + url.search) };
  }
  return lastTarget;
}

/**
 * One document's compiled patterns, for a reader that matches many of them (the AI-use signal readers:
 * thousands of robots.txt rules or tdmrep.json locations): kept as long as the document is, never in the
 * shared bounded cache above, where one large document would empty it for everyone. Compiling reads the
 * pattern once, so it is charged to the budget like matching.
 */
export class PatternCache {
  readonly #compiled = new Map<string, Compiled>();

  compiled(pathPattern: string, budget?: EvaluationBudget): Compiled {
    let c = this.#compiled.get(pathPattern);
    if (c) return c;
    budget?.spend(pathPattern.length + 1);
    c = compile(pathPattern);
    this.#compiled.set(pathPattern, c);
    return c;
  }
}

function compiledPattern(pathPattern: string): Compiled {
  let c = compiled.get(pathPattern);
  if (c) return c;
  c = compile(pathPattern);
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(pathPattern, c);
  return c;
}

function compile(pathPattern: string): Compiled {
  const anchored = pathPattern.endsWith('$');
  const raw = anchored ? pathPattern.slice(0, -1) : pathPattern;
  if (raw.length > WILDCARD_LIMITS.maxPatternChars)
    return { overLimits: `pattern is ${raw.length} characters; the limit is ${WILDCARD_LIMITS.maxPatternChars}` };
  const pieces = raw.split('*');
  if (pieces.length - 1 > WILDCARD_LIMITS.maxWildcards)
    return { overLimits: `pattern has ${pieces.length - 1} wildcards; the limit is ${WILDCARD_LIMITS.maxWildcards}` };
  const wildcard = compileWildcard(pieces.map(comparisonForm), anchored);
  return { wildcard, specificity: 2 * wildcard.literal + (anchored ? 1 : 0) };
}
