import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import { DocumentMemo, MAX_TDMREP_RULES, matchPath, rulesOverLimitRule } from './signal-work.js';
import type { MatchedRule } from './tdmrep-rule-choice.js';

// Which rules of a tdmrep.json match a resource (W3C TDMRep CG final report, #sec-tdm-file), matched under
// the reading's work budget (signal-work.ts) with the file's patterns compiled once per file text. Pure but
// for that cache. Every matching rule is collected: which of them applies, where readers of the report
// differ, is tdmrep-rule-choice.ts's.
//
// At most MAX_TDMREP_RULES rules are matched. A file with more has rules `unread`: a later rule might be
// more specific and reserve, so only a reservation among the rules read is an answer (tdmrep-file.ts); with
// no match among them it is `too-many`, read as not determinable. Over budget, EvaluationBudgetExceeded is
// thrown, which readSignals reads as not determinable.

type TdmrepRuleMatch =
  /** The matching rules in file order (at least one); `unread` says why some rules were not read, if any were not. */
  | { kind: 'matched'; rules: MatchedRule[]; unread: string | null }
  /** No rule's location matches. */
  | { kind: 'none' }
  /** The first rule reached, before any match, whose location is over the pattern limits (0-based). */
  | { kind: 'over-limits'; index: number; reason: string }
  /** More than MAX_TDMREP_RULES rules and none of those matched. */
  | { kind: 'too-many'; count: number; limit: number };

const memo = new DocumentMemo<null>(8);

/** @param fileText the file as read (its compiled patterns are kept by it) */
export function matchingRules(
  rules: readonly unknown[],
  fileText: string,
  resource: string,
  budget?: EvaluationBudget,
): TdmrepRuleMatch {
  const { patterns } = memo.get(fileText, () => null);
  const n = Math.min(rules.length, MAX_TDMREP_RULES);
  const matched: MatchedRule[] = [];
  let unread =
    rules.length > MAX_TDMREP_RULES ? rulesOverLimitRule('tdmrep.json', rules.length, MAX_TDMREP_RULES) : null;
  for (let i = 0; i < n; i++) {
    const rule: unknown = rules[i];
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) continue;
    const location = (rule as Record<string, unknown>).location;
    if (typeof location !== 'string') continue;
    const m = matchPath(location, resource, budget, patterns);
    if (m.overLimits) {
      if (matched.length === 0) return { kind: 'over-limits', index: i, reason: m.overLimits };
      // Whether this rule (more specific, perhaps) applies is unknown: only a reservation already read stands.
      unread = `rule ${i + 1}: location not matched, ${m.overLimits}; not determinable unless an earlier rule reserves`;
      break;
    }
    if (m.matches)
      matched.push({ n: i + 1, rule: rule as Record<string, unknown>, octets: Buffer.byteLength(location, 'utf8') });
  }
  if (matched.length > 0) return { kind: 'matched', rules: matched, unread };
  return rules.length > MAX_TDMREP_RULES
    ? { kind: 'too-many', count: rules.length, limit: MAX_TDMREP_RULES }
    : { kind: 'none' };
}
