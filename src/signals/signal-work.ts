import type { EvaluationBudget, EvaluationBudgetExceeded } from '../matching/evaluation-budget.js';
import { matchContentUrl, PatternCache, type ScopeMatch } from '../matching/pattern.js';

// The work the AI-use signal readers may do on one resource's reading, counted as RSL's evaluation is
// counted (src/matching/evaluation-budget.ts): the same linear matcher (src/matching/wildcard-match.ts), charged in
// octets read, with the same default budget, and a bound on how many rules of one document are matched
// at all. Over either, the reader's statement is not determinable: one silent observation whose rule
// starts with a stable code, which says no more than no statement at all. See docs/decisions.md
// "Signal readers under one work budget".

/** Rule of a reading stopped by its budget (the code RSL's evaluation uses for the same stop). */
const SIGNAL_BUDGET_EXCEEDED = 'evaluation-budget-exceeded';
/** Rule of a document with more rules than a reader matches. */
const SIGNAL_RULES_OVER_LIMIT = 'signal-rules-over-limit';

/**
 * Allow, Disallow and Content-Usage lines of robots.txt a reader matches (the `*` groups and the global
 * lines together). RFC 9309 §2.5 bounds the file by its size (500 KiB at least), not by its rules; at ~11
 * octets for the shortest rule that is ~46,000 rules, far beyond any robots.txt written for crawlers
 * (large sites list a few thousand), so a file past this count is read as not determinable rather than
 * cut short: dropping a Disallow could only widen what is read as crawlable.
 */
export const MAX_ROBOTS_SIGNAL_RULES = 10_000;
/** tdmrep.json rules matched; a file is a handful in practice (#sec-tdm-file examples have 2). */
export const MAX_TDMREP_RULES = 1_000;

/** Why a reading stopped on its budget, as a silent reading's rule. */
export function budgetExceededRule(e: EvaluationBudgetExceeded): string {
  return `${SIGNAL_BUDGET_EXCEEDED}: ${e.message}; not determinable, so nothing is read from it (as if absent)`;
}

/** Why a document with too many rules was not matched, as a silent reading's rule. */
export function rulesOverLimitRule(what: string, count: number, limit: number): string {
  return (
    `${SIGNAL_RULES_OVER_LIMIT}: ${what} has ${count} rules, more than the ${limit} matched; ` +
    'not determinable, so nothing is read from it (as if absent)'
  );
}

/**
 * A document's parsed form and compiled patterns, kept per document text: the readers ask about many
 * resources of one origin while its robots.txt or tdmrep.json is fresh. A few documents are kept (the
 * last used); a pattern cache dies with its document, so no one document empties another's.
 */
export class DocumentMemo<T> {
  readonly #entries = new Map<string, { value: T; patterns: PatternCache }>();
  constructor(private readonly max: number) {}

  get(text: string, make: (text: string) => T): { value: T; patterns: PatternCache } {
    let e = this.#entries.get(text);
    if (e) {
      this.#entries.delete(text);
    } else {
      e = { value: make(text), patterns: new PatternCache() };
      while (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(text, e);
    return e;
  }
}

/** A robots.txt path pattern against the resource, compiled in `patterns` and charged to `budget`. */
export function matchPath(
  pattern: string,
  resource: string,
  budget?: EvaluationBudget,
  patterns?: PatternCache,
): ScopeMatch {
  return matchContentUrl(pattern, resource, false, budget, patterns);
}
