import type { Content, License, ParseResult } from '../parse/model.js';
import type { Channel, Reason } from '@rights-preflight/wire/rsl/vocabulary.js';

// What every rule of the reading produces: a verdict with its outcome, the licensee's obligations and
// the reasons that name the document, scope, license and rule behind it; and the two ways verdicts
// are combined (alternatives of one kind merge, equals that disagree conflict).

/** One association as observed: its parse result, or why there is none. */
export interface DocumentInput {
  channel: Channel;
  /** The document URL (the resource URL for inline and supplied documents, and for channel failures). */
  url: string;
  sha256: string | null;
  parse: ParseResult | null;
  /** Set when the association (or a whole discovery channel) could not be read. */
  failure: { code: string; message: string } | null;
  /**
   * robots.txt inputs only: the crawler readings (indexes into the readings given to the evaluator)
   * whose `License` lines name this document. Absent: every reading's.
   */
  robotsReadings?: number[];
}

/**
 * `terms-only`: a license silent on usage that still names terms (payment, license server,
 * encryption, reporting). It grants nothing by itself, but in the most specific scope its terms
 * govern its paths over whatever a broader scope grants (see `documentVerdict`).
 */
export type Outcome =
  | 'permitted'
  | 'license-required'
  | 'unsupported'
  | 'not-granted'
  | 'prohibited'
  | 'silent'
  | 'failed'
  | 'conflict'
  | 'terms-only';
export interface Verdict {
  outcome: Outcome;
  obligations: string[];
  reasons: Reason[];
  unsupportedTerms?: string;
}

/** Outcomes that decide, from the least to the most restrictive. Every outcome `combineEqual` can meet has a rank. */
export type Deciding = 'permitted' | 'license-required' | 'unsupported' | 'conflict' | 'not-granted' | 'prohibited';
export const RANK: Record<Deciding, number> = {
  permitted: 0,
  'license-required': 1,
  unsupported: 2,
  conflict: 3,
  'not-granted': 4,
  prohibited: 5,
};
export const isAllow = (o: Outcome) => o === 'permitted' || o === 'license-required';
export const isRestrictive = (o: Outcome) => o === 'not-granted' || o === 'prohibited';

export interface Where {
  doc: DocumentInput;
  content: Content | null;
  license: License | null;
}

export function reason(where: Where, rule: string, outcome: Outcome, detail: string): Reason {
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

export function merge(outcome: Outcome, verdicts: Verdict[]): Verdict {
  const unsupported = verdicts.find((v) => v.unsupportedTerms !== undefined)?.unsupportedTerms;
  return {
    outcome,
    obligations: [...new Set(verdicts.flatMap((v) => v.obligations))],
    reasons: verdicts.flatMap((v) => v.reasons),
    ...(unsupported !== undefined ? { unsupportedTerms: unsupported } : {}),
  };
}

/** Verdicts of equal weight: allow against restriction is a CONFLICT, otherwise the most restrictive. */
export function combineEqual(verdicts: Verdict[], conflictRule: string): Verdict {
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

export function sortReasons(reasons: Reason[]): Reason[] {
  const key = (r: Reason) =>
    JSON.stringify([r.document_url, r.channel, r.content_index ?? -1, r.license_index ?? -1, r.rule, r.detail]);
  const unique = new Map(reasons.map((r) => [key(r) + r.outcome, r]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}
