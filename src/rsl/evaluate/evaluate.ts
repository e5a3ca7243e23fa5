import { EvaluationBudget, EvaluationBudgetExceeded } from '../../matching/evaluation-budget.js';
import { documentVerdict } from './document.js';
import { combineEqual, isRestrictive, sortReasons, type DocumentInput, type Outcome, type Verdict } from './verdict.js';
import {
  CLASSIFICATION_RESTRICTIVENESS,
  decisionFor,
  type Classification,
  type Decision,
  type Reason,
} from '@rights-preflight/wire/rsl/vocabulary.js';
import {
  tokensForPurpose,
  type EvaluatedToken,
  type GatePurpose,
  type InspectPurpose,
  type Question,
  type UserClass,
} from '@rights-preflight/wire/rsl/purposes.js';

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
//  crawlers — robots.txt scopes a group's `License` lines to the crawlers that select the group
//             (RSL §4.4.2–4.4.3, 2026-01-16 erratum), and a report does not know which crawler will
//             ingest the page: the channel rule is applied once per crawler reading (the site-level
//             documents that reading selects, every page-level one, every failure), and the most
//             restrictive answer is the answer, with a reason naming the reading that decided and
//             each reading's classification in `robots_groups` (docs/decisions.md, "Robots.txt read
//             as the standards say").
//
// One file per rule under ./evaluate/: license.ts, content.ts, document.ts; verdict.ts holds what they
// share. This file is the channel rule and the entry points.

export type { DocumentInput } from './verdict.js';

export interface Evaluation {
  token: EvaluatedToken;
  classification: Classification;
  decision: Decision;
  /** What a licensee would have to do (payment, attribution, license-server token, reporting). */
  obligations: string[];
  reasons: Reason[];
  /** With more than one robots.txt crawler reading: what each reading alone answers. */
  robots_groups?: RobotsGroupReading[];
}

/** The crawlers that make one robots.txt reading (robots.ts `CrawlerReading`), as the evaluator needs them. */
export interface CrawlerAgents {
  agents: readonly string[];
}

/** One robots.txt reading's answer: the crawlers (user-agent tokens, `*` for every other) and its classification. */
export interface RobotsGroupReading {
  user_agents: string[];
  classification: Classification;
}

/** A report lists at most this many readings, and this many user agents per reading (the rest are counted). */
export const MAX_ROBOTS_GROUPS_REPORTED = 32;
export const MAX_AGENTS_PER_GROUP_REPORTED = 16;

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
  crawlers: readonly CrawlerAgents[] = [],
): Evaluation {
  try {
    return evaluateWithin(documents, question, budget, crawlers);
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

type Leveled = { doc: DocumentInput; level: 'page' | 'site'; v: Verdict };

function evaluateWithin(
  documents: readonly DocumentInput[],
  question: Question,
  budget: EvaluationBudget,
  crawlers: readonly CrawlerAgents[],
): Evaluation {
  if (documents.length === 0) return finish(question, 'NO_MACHINE_READABLE_DECLARATION', [], []);
  const verdicts: Leveled[] = documents.map((doc) => ({
    doc,
    level: doc.channel === 'robots' ? 'site' : 'page',
    v: documentVerdict(doc, question, budget),
  }));
  if (crawlers.length <= 1) return decide(question, verdicts);
  return decidePerCrawler(question, verdicts, crawlers);
}

const finish = (question: Question, classification: Classification, obligations: string[], reasons: Reason[]) => ({
  token: question.token,
  classification,
  decision: decisionFor(classification),
  obligations: [...obligations].sort(),
  reasons: sortReasons(reasons),
});

/** The channel rule over one set of verdicts. */
function decide(question: Question, verdicts: readonly Leveled[]): Evaluation {
  if (verdicts.length === 0) return finish(question, 'NO_MACHINE_READABLE_DECLARATION', [], []);
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
    return finish(question, 'UNKNOWN', [], [...silent, ...failureReasons]);
  }
  if (failures.length && !isRestrictive(decider.outcome) && decider.outcome !== 'conflict') {
    // Something we could not read might restrict: an allow is never reported over it.
    return finish(question, 'UNKNOWN', decider.obligations, [...decider.reasons, ...failureReasons]);
  }
  return finish(
    question,
    CLASSIFICATION_OF[decider.outcome],
    decider.outcome === 'conflict' ? [] : decider.obligations,
    [...decider.reasons, ...failureReasons],
  );
}

/**
 * The channel rule once per robots.txt crawler reading, the most restrictive answer kept. Readings that
 * select the same readable documents answer alike, so each distinct set is decided once (a file with
 * thousands of groups costs what its few fetched documents cost).
 */
function decidePerCrawler(question: Question, verdicts: Leveled[], crawlers: readonly CrawlerAgents[]): Evaluation {
  // Every reading sees the page-level documents, every failure, and robots inputs not scoped to readings.
  const shared = verdicts.filter(
    (x) => x.level === 'page' || x.v.outcome === 'failed' || x.doc.robotsReadings === undefined,
  );
  const own = crawlers.map((): number[] => []);
  verdicts.forEach((x, i) => {
    if (x.level === 'page' || x.v.outcome === 'failed' || x.doc.robotsReadings === undefined) return;
    for (const r of x.doc.robotsReadings) own[r]?.push(i);
  });
  const byKey = new Map<string, { readings: number[]; evaluation: Evaluation }>();
  own.forEach((indexes, r) => {
    const key = indexes.join(',');
    const known = byKey.get(key);
    if (known) known.readings.push(r);
    else
      byKey.set(key, {
        readings: [r],
        evaluation: decide(question, [...shared, ...indexes.map((i) => verdicts[i]!)]),
      });
  });
  const answers = [...byKey.values()];
  // The most restrictive; among equals, the one of the `*` crawlers, else the first named.
  const rank = (a: (typeof answers)[number]) => CLASSIFICATION_RESTRICTIVENESS[a.evaluation.classification];
  const decider = answers.reduce((best, a) => (rank(a) > rank(best) ? a : best));
  const agentsOf = (readings: number[]) => readings.flatMap((r) => crawlers[r]!.agents);
  const groups = answers
    .map((a) => ({ answer: a, agents: agentsOf(a.readings), classification: a.evaluation.classification }))
    .sort(
      (a, b) => CLASSIFICATION_RESTRICTIVENESS[b.classification] - CLASSIFICATION_RESTRICTIVENESS[a.classification],
    );
  const named = (agents: string[]) =>
    agents.length > MAX_AGENTS_PER_GROUP_REPORTED
      ? [...agents.slice(0, MAX_AGENTS_PER_GROUP_REPORTED), `(${agents.length - MAX_AGENTS_PER_GROUP_REPORTED} more)`]
      : agents;
  const others = groups
    .filter((g) => g.answer !== decider)
    .map((g) => `${named(g.agents).join(' ')}: ${g.classification}`);
  const decidingAgents = named(agentsOf(decider.readings)).join(' ');
  const robotsUrl = `${new URL(question.resource).origin}/robots.txt`;
  const reason: Reason = {
    rule: 'robots-crawler-reading',
    outcome: 'most-restrictive',
    channel: 'robots',
    document_url: robotsUrl,
    document_sha256: null,
    content_url: null,
    content_index: null,
    license_index: null,
    detail:
      `robots.txt License lines are scoped to the crawlers that select their group (RSL §4.4.2–4.4.3) and the ` +
      `crawler is not known: read as ${decidingAgents} (${decider.evaluation.classification}), the most ` +
      `restrictive of ${answers.length} readings` +
      (others.length ? `; ${others.slice(0, MAX_ROBOTS_GROUPS_REPORTED).join('; ')}` : ''),
  };
  return {
    ...decider.evaluation,
    reasons: [...decider.evaluation.reasons, reason],
    robots_groups: groups.slice(0, MAX_ROBOTS_GROUPS_REPORTED).map((g) => ({
      user_agents: named(g.agents),
      classification: g.classification,
    })),
  };
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
  crawlers: readonly CrawlerAgents[] = [],
): PurposeEvaluation {
  const tokens = tokensForPurpose(q.purpose).map((token) =>
    evaluate(documents, { resource: q.resource, token, userClass: q.userClass, geo: q.geo }, budget, crawlers),
  );
  const classification = tokens
    .map((e) => e.classification)
    .reduce((a, b) => (CLASSIFICATION_RESTRICTIVENESS[b] > CLASSIFICATION_RESTRICTIVENESS[a] ? b : a));
  return { purpose: q.purpose, classification, decision: decisionFor(classification), tokens };
}
