import { EvaluationBudget, EvaluationBudgetExceeded } from './evaluation-budget.js';
import { documentVerdict } from './evaluate/document.js';
import {
  combineEqual,
  isRestrictive,
  sortReasons,
  type DocumentInput,
  type Outcome,
  type Verdict,
} from './evaluate/verdict.js';
import {
  CLASSIFICATION_RESTRICTIVENESS,
  decisionFor,
  type Classification,
  type Decision,
  type Reason,
} from '../../packages/buyer/src/wire/rsl/vocabulary.js';
import {
  tokensForPurpose,
  type EvaluatedToken,
  type GatePurpose,
  type InspectPurpose,
  type Question,
  type UserClass,
} from '../../packages/buyer/src/wire/rsl/purposes.js';

// The evaluator: pure and synchronous. It never expands rights (rsl.md §2.1 rule 6) and every
// outcome carries the document, scope, license and rule that produced it.
//
// Reading, per question token (see docs/decisions.md "RSL reading" for why):
//  license  — an explicit usage prohibition covering the token wins over anything the same
//             license permits (rsl.md §6.1 reading A); a `permits` list closes its axis; user/geo
//             lists decide whether the license applies to this client at all; a license silent on
//             usage grants nothing (silence is not permission, §6.4).
//  content  — licenses are alternative offers (§6.3): any usage prohibition wins, else the
//             least burdensome grant, else "not granted", else silent.
//  document — the most specific matching `<content>` that speaks to the token decides (§2.1 rule
//             8: narrow scopes override only what they mention); equal specificity that disagrees
//             (one allows, one restricts) is a CONFLICT. Terms named by more specific scopes that
//             are silent on usage (payment only, a license server…) are added to a broader grant.
//  channels — page-level associations (Link header, HTML link/script, supplied XML) beat the
//             site-level robots.txt association (§3.7); documents of equal weight that disagree
//             are a CONFLICT. A failed or non-conformant association can never be outweighed by
//             a permission: any allow is downgraded to UNKNOWN while something is unverifiable.
//
// One file per rule under ./evaluate/: license.ts, content.ts, document.ts; verdict.ts holds what they
// share. This file is the channel rule and the entry points.

export type { DocumentInput } from './evaluate/verdict.js';

export interface Evaluation {
  token: EvaluatedToken;
  classification: Classification;
  decision: Decision;
  /** What a licensee would have to do (payment, attribution, license-server token, reporting). */
  obligations: string[];
  reasons: Reason[];
}

const CLASSIFICATION_OF: Record<Outcome, Classification> = {
  permitted: 'PERMITTED_BY_OBSERVED_DECLARATION',
  'license-required': 'LICENSE_REQUIRED',
  unsupported: 'UNKNOWN',
  'not-granted': 'PROHIBITED_BY_OBSERVED_DECLARATION',
  prohibited: 'PROHIBITED_BY_OBSERVED_DECLARATION',
  silent: 'UNKNOWN',
  failed: 'UNKNOWN',
  conflict: 'CONFLICT',
  'terms-only': 'UNKNOWN',
};

/**
 * Evaluate all observed associations for one question token. Pure; order of `documents` is irrelevant.
 * `budget` bounds the matching work (shared by every token of one request); once it is spent the
 * answer is UNKNOWN with the rule `evaluation-budget-exceeded`.
 */
export function evaluate(
  documents: readonly DocumentInput[],
  question: Question,
  budget: EvaluationBudget = new EvaluationBudget(),
): Evaluation {
  try {
    return evaluateWithin(documents, question, budget);
  } catch (err) {
    if (!(err instanceof EvaluationBudgetExceeded)) throw err;
    const reason: Reason = {
      rule: 'evaluation-budget-exceeded',
      outcome: 'failed',
      // The whole reading ran out, not one document: it is charged to the resource asked about.
      channel: 'resource',
      document_url: question.resource,
      document_sha256: null,
      content_url: null,
      content_index: null,
      license_index: null,
      detail: `${err.message}; nothing was decided, so nothing is granted`,
    };
    return {
      token: question.token,
      classification: 'UNKNOWN',
      decision: decisionFor('UNKNOWN'),
      obligations: [],
      reasons: [reason],
    };
  }
}

function evaluateWithin(documents: readonly DocumentInput[], question: Question, budget: EvaluationBudget) {
  const finish = (classification: Classification, obligations: string[], reasons: Reason[]): Evaluation => ({
    token: question.token,
    classification,
    decision: decisionFor(classification),
    obligations: [...obligations].sort(),
    reasons: sortReasons(reasons),
  });
  if (documents.length === 0) return finish('NO_MACHINE_READABLE_DECLARATION', [], []);

  const verdicts = documents.map((d) => ({
    level: d.channel === 'robots' ? 'site' : 'page',
    v: documentVerdict(d, question, budget),
  }));
  const failures = verdicts.filter((x) => x.v.outcome === 'failed').map((x) => x.v);
  let decider: Verdict | null = null;
  for (const level of ['page', 'site']) {
    const speaking = verdicts
      .filter((x) => x.level === level && x.v.outcome !== 'silent' && x.v.outcome !== 'failed')
      .map((x) => x.v);
    if (speaking.length) {
      decider = combineEqual(speaking, 'channel-conflict');
      break;
    }
  }
  const failureReasons = failures.flatMap((f) => f.reasons);
  if (!decider) {
    const silent = verdicts.filter((x) => x.v.outcome === 'silent').flatMap((x) => x.v.reasons);
    return finish('UNKNOWN', [], [...silent, ...failureReasons]);
  }
  if (failures.length && !isRestrictive(decider.outcome) && decider.outcome !== 'conflict') {
    // Something we could not read might restrict: an allow is never reported over it.
    return finish('UNKNOWN', decider.obligations, [...decider.reasons, ...failureReasons]);
  }
  return finish(CLASSIFICATION_OF[decider.outcome], decider.outcome === 'conflict' ? [] : decider.obligations, [
    ...decider.reasons,
    ...failureReasons,
  ]);
}

export interface PurposeEvaluation {
  purpose: GatePurpose | InspectPurpose;
  /** The combined reading: the most restrictive of the per-token readings. */
  classification: Classification;
  decision: Decision;
  tokens: Evaluation[];
}

/** Evaluate a purpose (alias-aware: `rag-ingestion` = ai-index AND ai-input, both reported). */
export function evaluatePurpose(
  documents: readonly DocumentInput[],
  q: { resource: string; purpose: GatePurpose | InspectPurpose; userClass: UserClass; geo: string | null },
  budget: EvaluationBudget = new EvaluationBudget(),
): PurposeEvaluation {
  const tokens = tokensForPurpose(q.purpose).map((token) =>
    evaluate(documents, { resource: q.resource, token, userClass: q.userClass, geo: q.geo }, budget),
  );
  const classification = tokens
    .map((e) => e.classification)
    .reduce((a, b) => (CLASSIFICATION_RESTRICTIVENESS[b] > CLASSIFICATION_RESTRICTIVENESS[a] ? b : a));
  return { purpose: q.purpose, classification, decision: decisionFor(classification), tokens };
}
