import type { EvaluationBudget } from '../rsl/evaluation-budget.js';
import { DocumentMemo, MAX_TDMREP_RULES, matchPath } from './signal-work.js';

// Which rule of a tdmrep.json applies to a resource (W3C TDMRep CG final report, #sec-tdm-file: "The most
// specific match is the first in sequence"), matched under the reading's work budget (signal-work.ts) with
// the file's patterns compiled once per file text. Pure but for that cache.
//
// At most MAX_TDMREP_RULES rules are matched: a match among them is the answer whatever follows it (the
// first match wins), while a file that has more and matched none of them cannot say "unset", since a later
// rule might reserve: it is `too-many`, read as not determinable. Over budget, EvaluationBudgetExceeded is
// thrown, which readSignals reads as not determinable.

export type TdmrepRuleMatch =
  /** The first rule whose location matches (0-based). */
  | { kind: 'matched'; index: number }
  /** No rule's location matches. */
  | { kind: 'none' }
  /** The first rule reached whose location is over the pattern limits: whether it applies is unknown. */
  | { kind: 'over-limits'; index: number; reason: string }
  /** More than MAX_TDMREP_RULES rules and none of those matched. */
  | { kind: 'too-many'; count: number; limit: number };

const memo = new DocumentMemo<null>(8);

/** @param fileText the file as read (its compiled patterns are kept by it) */
export function firstMatchingRule(
  rules: readonly unknown[],
  fileText: string,
  resource: string,
  budget?: EvaluationBudget,
): TdmrepRuleMatch {
  const { patterns } = memo.get(fileText, () => null);
  const n = Math.min(rules.length, MAX_TDMREP_RULES);
  for (let i = 0; i < n; i++) {
    const rule: unknown = rules[i];
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) continue;
    const location = (rule as Record<string, unknown>).location;
    if (typeof location !== 'string') continue;
    const m = matchPath(location, resource, budget, patterns);
    if (m.overLimits) return { kind: 'over-limits', index: i, reason: m.overLimits };
    if (m.matches) return { kind: 'matched', index: i };
  }
  return rules.length > MAX_TDMREP_RULES
    ? { kind: 'too-many', count: rules.length, limit: MAX_TDMREP_RULES }
    : { kind: 'none' };
}
