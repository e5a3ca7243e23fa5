import type { EvaluationBudget } from '../../matching/evaluation-budget.js';
import type { Content } from '../parse/model.js';
import { matchContentUrl, type ScopeMatch } from '../../matching/pattern.js';
import type { Question } from '@rights-preflight/wire/rsl/purposes.js';
import type { Reason } from '@rights-preflight/wire/rsl/vocabulary.js';
import { contentVerdict } from './content.js';
import {
  combineEqual,
  isAllow,
  isRestrictive,
  merge,
  reason,
  type DocumentInput,
  type Verdict,
  type Where,
} from './verdict.js';

// The document rule: the most specific matching <content> that speaks to the token decides (rsl.md
// §2.1 rule 8: narrow scopes override only what they mention); equal specificity that disagrees (one
// allows, one restricts) is a CONFLICT. Terms named by more specific scopes that are silent on usage
// (payment only, a license server…) are added to a broader grant. A non-conformant document, or one
// with a scope too costly to match, may restrict but never grants.

export function documentVerdict(doc: DocumentInput, q: Question, budget: EvaluationBudget): Verdict {
  const whereDoc: Where = { doc, content: null, license: null };
  const failed = (rule: string, detail: string): Verdict => ({
    outcome: 'failed',
    obligations: [],
    reasons: [reason(whereDoc, rule, 'failed', detail)],
  });
  if (doc.failure) return failed('association-unavailable', `${doc.failure.code}: ${doc.failure.message}`);
  if (!doc.parse) return failed('association-unavailable', 'document was not obtained');
  if (!doc.parse.ok) return failed('document-invalid', `${doc.parse.code}: ${doc.parse.message}`);
  const parsed = doc.parse;
  const emptyMeansResource = doc.channel !== 'robots';
  const scopes = parsed.document.contents.map((c) => ({ c, m: scopeMatch(c, q.resource, emptyMeansResource, budget) }));
  const matching = scopes.filter((x) => x.m.matches);
  const overLimits = scopes.find((x) => x.m.overLimits !== undefined);
  let verdict: Verdict | null = null;
  const silentReasons: Reason[] = [];
  // Terms named by scopes at least as specific as the decider (rsl.md §2.1 rule 3: the narrower
  // declaration takes precedence): a grant from a broader scope carries them, never drops them.
  const narrowerTerms: Verdict[] = [];
  const specificities = [...new Set(matching.map((x) => x.m.specificity))].sort((a, b) => b - a);
  for (const s of specificities) {
    const group = matching.filter((x) => x.m.specificity === s).map((x) => contentVerdict(x.c, doc, q));
    const speaking = group.filter((v) => v.outcome !== 'silent' && v.outcome !== 'terms-only');
    narrowerTerms.push(...group.filter((v) => v.outcome === 'terms-only'));
    silentReasons.push(...group.filter((v) => v.outcome === 'silent').flatMap((v) => v.reasons));
    if (speaking.length) {
      verdict = withNarrowerTerms(combineEqual(speaking, 'equal-scope-conflict'), narrowerTerms);
      break;
    }
  }
  if (!verdict) silentReasons.push(...narrowerTerms.flatMap((v) => v.reasons));
  if (!parsed.conformant) {
    // A non-conformant document may still restrict, but it never grants (never widen rights).
    if (verdict && isRestrictive(verdict.outcome)) return verdict;
    const errors = parsed.problems.filter((p) => p.severity === 'error').map((p) => p.code);
    return failed(
      'document-nonconformant',
      `non-conformant RSL (${[...new Set(errors)].join(', ')}); nothing it grants is relied on`,
    );
  }
  if (overLimits) {
    // A scope we would not match might be the one that decides: only a restriction stands beside it.
    if (verdict && isRestrictive(verdict.outcome)) return verdict;
    const where: Where = { doc, content: overLimits.c, license: null };
    return {
      outcome: 'failed',
      obligations: [],
      reasons: [reason(where, 'pattern-over-limits', 'failed', `${overLimits.m.overLimits}; it was not matched`)],
    };
  }
  if (verdict) return verdict;
  if (matching.length === 0) {
    return {
      outcome: 'silent',
      obligations: [],
      reasons: [reason(whereDoc, 'no-matching-content', 'silent', 'no <content url> matches the resource')],
    };
  }
  return { outcome: 'silent', obligations: [], reasons: silentReasons };
}

// Every token of a purpose asks the same scopes about the same resource: within one budget (one
// request) each content is matched, and charged, once. The memo lives in the budget, not beside the
// parse cache, so what a request is charged never depends on what earlier requests asked.
function scopeMatch(c: Content, resource: string, emptyMeansResource: boolean, budget: EvaluationBudget): ScopeMatch {
  const key = `${emptyMeansResource ? 1 : 0}${resource}`;
  return budget.memo(c, key, () => matchContentUrl(c.url, resource, emptyMeansResource, budget));
}

/** A grant under narrower terms-only scopes needs those terms: LICENSE_REQUIRED, or UNKNOWN when a
 *  term is not understood. */
function withNarrowerTerms(decider: Verdict, terms: Verdict[]): Verdict {
  if (!isAllow(decider.outcome) || terms.length === 0) return decider;
  const withTerms = merge(decider.outcome, [decider, ...terms]);
  return { ...withTerms, outcome: withTerms.unsupportedTerms !== undefined ? 'unsupported' : 'license-required' };
}
