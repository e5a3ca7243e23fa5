import type { Content, License, ParseResult } from './model.js';
import { EvaluationBudget, EvaluationBudgetExceeded } from './evaluation-budget.js';
import { LEGACY_USAGE_ALIASES } from './parse.js';
import { matchContentUrl, type ScopeMatch } from './pattern.js';
import {
  CLASSIFICATION_RESTRICTIVENESS,
  decisionFor,
  type Channel,
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

/** One association as observed: its parse result, or why there is none. */
export interface DocumentInput {
  channel: Channel;
  /** The document URL (the resource URL for inline and supplied documents, and for channel failures). */
  url: string;
  sha256: string | null;
  parse: ParseResult | null;
  /** Set when the association (or a whole discovery channel) could not be read. */
  failure: { code: string; message: string } | null;
}

export interface Evaluation {
  token: EvaluatedToken;
  classification: Classification;
  decision: Decision;
  /** What a licensee would have to do (payment, attribution, license-server token, reporting). */
  obligations: string[];
  reasons: Reason[];
}

/**
 * `terms-only`: a license silent on usage that still names terms (payment, license server,
 * encryption, reporting). It grants nothing by itself, but in the most specific scope its terms
 * govern its paths over whatever a broader scope grants (see `documentVerdict`).
 */
type Outcome =
  | 'permitted'
  | 'license-required'
  | 'unsupported'
  | 'not-granted'
  | 'prohibited'
  | 'silent'
  | 'failed'
  | 'conflict'
  | 'terms-only';
interface Verdict {
  outcome: Outcome;
  obligations: string[];
  reasons: Reason[];
  unsupportedTerms?: string;
}

/** Outcomes that decide, from the least to the most restrictive. Every outcome `combineEqual` can meet has a rank. */
type Deciding = 'permitted' | 'license-required' | 'unsupported' | 'conflict' | 'not-granted' | 'prohibited';
const RANK: Record<Deciding, number> = {
  permitted: 0,
  'license-required': 1,
  unsupported: 2,
  conflict: 3,
  'not-granted': 4,
  prohibited: 5,
};
const isAllow = (o: Outcome) => o === 'permitted' || o === 'license-required';
const isRestrictive = (o: Outcome) => o === 'not-granted' || o === 'prohibited';

const PAID_TYPES = new Set(['purchase', 'subscription', 'training', 'crawl', 'use', 'contribution']);
/** ISO 3166-1 alpha-2 codes of the EU member states, for the `EU` geo token. */
const EU_MEMBERS = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
]);

/** Does a usage token list cover the question token? `all` ⊇ `ai-all` ⊇
 *  ai-train/ai-input/ai-index; `search` is not AI. */
export function usageCovers(list: readonly string[], token: EvaluatedToken): boolean {
  if (list.includes('all')) return true;
  // `crawl` is not an RSL usage token: only "any automated processing" (`all`) speaks to it.
  if (token === 'crawl') return false;
  if (list.includes(token)) return true;
  return token !== 'search' && list.includes('ai-all');
}

const geoCovers = (list: readonly string[], geo: string) =>
  list.includes(geo) || (list.includes('EU') && EU_MEMBERS.has(geo));

interface Where {
  doc: DocumentInput;
  content: Content | null;
  license: License | null;
}

function reason(where: Where, rule: string, outcome: Outcome, detail: string): Reason {
  return {
    rule,
    outcome,
    detail,
    channel: where.doc.channel,
    document_url: where.doc.url,
    document_sha256: where.doc.sha256,
    content_url: where.content?.url ?? null,
    content_index: where.content?.index ?? null,
    license_index: where.license?.index ?? null,
  };
}

function licenseVerdict(license: License, content: Content, doc: DocumentInput, q: Question): Verdict {
  const w: Where = { doc, content, license };
  const v = (outcome: Outcome, rule: string, detail: string, obligations: string[] = []): Verdict => ({
    outcome,
    obligations,
    reasons: [reason(w, rule, outcome, detail)],
  });
  const permits = license.permits.usage;
  const prohibits = license.prohibits.usage ?? [];
  if (usageCovers(prohibits, q.token)) {
    const conflict = permits !== undefined && usageCovers(permits, q.token);
    return v(
      'prohibited',
      conflict ? 'permit-vs-prohibit' : 'usage-prohibited',
      `prohibits usage "${prohibits.join(' ')}" covers ${q.token}` +
        `${conflict ? `; the same license permits "${permits!.join(' ')}" but prohibition wins` : ''}`,
    );
  }
  const legacy = prohibits.find((t) => LEGACY_USAGE_ALIASES[t] === q.token);
  if (legacy)
    return v(
      'prohibited',
      'legacy-token-prohibited',
      `legacy token "${legacy}" read as prohibiting ${q.token} (legacy tokens may only prohibit)`,
    );
  if (permits !== undefined && !usageCovers(permits, q.token)) {
    return v(
      'not-granted',
      'usage-closure',
      `permits usage is limited to "${permits.join(' ')}", which does not include ${q.token}`,
    );
  }
  const userVerdict = axisExcludes(license, 'user', q.userClass, (list, u) => list.includes(u));
  if (userVerdict) return v('not-granted', userVerdict.rule, userVerdict.detail);
  if (license.permits.geo || license.prohibits.geo) {
    if (q.geo === null)
      return v('not-granted', 'geo-unknown', 'the license is limited by geography and no geo was given');
    const geoVerdict = axisExcludes(license, 'geo', q.geo, geoCovers);
    if (geoVerdict) return v('not-granted', geoVerdict.rule, geoVerdict.detail);
  }
  const { obligations, unsupported } = termsOf(license, content);
  if (permits === undefined) {
    if (obligations.length === 0 && unsupported === null)
      return v('silent', 'no-usage-statement', 'the license states no usage permission; silence is not permission');
    const terms = [...obligations, ...(unsupported !== null ? [`payment:${unsupported} (not understood)`] : [])];
    return {
      ...v(
        'terms-only',
        'scope-terms',
        `the license states no usage permission but names terms (${terms.join(', ')}); they govern this scope's paths`,
        obligations,
      ),
      ...(unsupported !== null ? { unsupportedTerms: unsupported } : {}),
    };
  }
  // Granted: the terms decide between PERMITTED and LICENSE_REQUIRED.
  if (unsupported !== null)
    return v(
      'unsupported',
      'payment-type-unsupported',
      `payment type "${unsupported}" is not understood; never read as free`,
      obligations,
    );
  if (obligations.length > 0)
    return v(
      'license-required',
      'permitted-with-terms',
      `permits usage "${permits.join(' ')}" with terms: ${obligations.join(', ')}`,
      obligations,
    );
  return v('permitted', 'permitted-free', `permits usage "${permits.join(' ')}", free, no license server`);
}

/**
 * What a licensee must do under a license. `type="free"` with an `<amount>` or an `<accepts>`
 * payment protocol names a price, so it is not free (rsl.md §6.6: only an element-less license
 * or a plain `type="free"` is free).
 */
function termsOf(license: License, content: Content): { obligations: string[]; unsupported: string | null } {
  const obligations: string[] = [];
  let unsupported: string | null = null;
  const p = license.payment;
  const price = p?.amount ? ` ${p.amount.value} ${p.amount.currency ?? '?'}` : '';
  if (p) {
    if (p.type === null) {
      if (p.standard || p.custom || p.amount || p.accepts)
        obligations.push(`payment:unspecified-type${p.standard ? ` standard=${p.standard}` : ''}`);
    } else if (p.type === 'attribution') obligations.push('attribution');
    else if (PAID_TYPES.has(p.type)) obligations.push(`payment:${p.type}${price}`);
    else if (p.type === 'inference') obligations.push('payment:use (legacy "inference")');
    else if (p.type === 'free') {
      if (p.amount || p.accepts)
        obligations.push(`payment:free-with-price${price}${p.accepts ? ` accepts=${p.accepts.type ?? '?'}` : ''}`);
    } else unsupported = p.type;
  }
  if (content.server) obligations.push(`license-server-token:${content.server}`);
  if (content.encrypted) obligations.push('encrypted:decryption-key');
  for (const r of license.reporting)
    obligations.push(`reporting:${r.type ?? 'unspecified'}${r.profile ? ` profile=${r.profile}` : ''}`);
  return { obligations, unsupported };
}

function axisExcludes(
  license: License,
  axis: 'user' | 'geo',
  value: string,
  covers: (list: readonly string[], v: string) => boolean,
): { rule: string; detail: string } | null {
  const prohibited = license.prohibits[axis];
  if (prohibited && covers(prohibited, value))
    return { rule: `${axis}-prohibited`, detail: `prohibits ${axis} "${prohibited.join(' ')}" covers ${value}` };
  const permitted = license.permits[axis];
  if (permitted && !covers(permitted, value))
    return {
      rule: `${axis}-closure`,
      detail: `permits ${axis} is limited to "${permitted.join(' ')}", which does not include ${value}`,
    };
  return null;
}

/** Licenses of one content are alternative offers; a usage prohibition in any of them wins. */
function contentVerdict(content: Content, doc: DocumentInput, q: Question): Verdict {
  const verdicts = content.licenses.map((l) => licenseVerdict(l, content, doc, q));
  const pick = (o: Outcome) => verdicts.filter((v) => v.outcome === o);
  for (const o of ['prohibited'] as const) if (pick(o).length) return merge(o, pick(o));
  for (const o of ['permitted', 'license-required', 'unsupported', 'not-granted', 'terms-only'] as const) {
    // A free grant is the least burdensome offer; keep only the offers of the chosen kind.
    if (pick(o).length) return merge(o, pick(o));
  }
  return { outcome: 'silent', obligations: [], reasons: verdicts.flatMap((v) => v.reasons) };
}

function merge(outcome: Outcome, verdicts: Verdict[]): Verdict {
  const unsupported = verdicts.find((v) => v.unsupportedTerms !== undefined)?.unsupportedTerms;
  return {
    outcome,
    obligations: [...new Set(verdicts.flatMap((v) => v.obligations))],
    reasons: verdicts.flatMap((v) => v.reasons),
    ...(unsupported !== undefined ? { unsupportedTerms: unsupported } : {}),
  };
}

/** Verdicts of equal weight: allow against restriction is a CONFLICT, otherwise the most restrictive. */
function combineEqual(verdicts: Verdict[], conflictRule: string): Verdict {
  const allows = verdicts.filter((v) => isAllow(v.outcome));
  const restricts = verdicts.filter((v) => isRestrictive(v.outcome));
  if (allows.length && restricts.length) {
    const reasons = sortReasons([...allows, ...restricts].flatMap((v) => v.reasons));
    return {
      outcome: 'conflict',
      obligations: [],
      reasons: [
        ...reasons,
        {
          ...reasons[0]!,
          rule: conflictRule,
          outcome: 'conflict',
          detail: 'declarations of equal weight disagree (one allows, one restricts)',
        },
      ],
    };
  }
  const rank = (o: Outcome): number => {
    if (!(o in RANK)) throw new Error(`outcome ${o} cannot be combined`); // callers pass deciding verdicts only
    return RANK[o as Deciding];
  };
  const top = Math.max(...verdicts.map((v) => rank(v.outcome)));
  const outcome = (Object.keys(RANK) as Deciding[]).find((k) => RANK[k] === top)!;
  return merge(
    outcome,
    verdicts.filter((v) => v.outcome === outcome),
  );
}

function documentVerdict(doc: DocumentInput, q: Question, budget: EvaluationBudget): Verdict {
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

function sortReasons(reasons: Reason[]): Reason[] {
  const key = (r: Reason) =>
    JSON.stringify([r.document_url, r.channel, r.content_index ?? -1, r.license_index ?? -1, r.rule, r.detail]);
  const unique = new Map(reasons.map((r) => [key(r) + r.outcome, r]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
