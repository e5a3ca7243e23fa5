import * as t from 'io-ts';

// The report vocabulary (spec §2.5; docs/decisions.md, "RSL reading") and the explanation records the evaluator
// emits. io-ts codecs because these values travel inside events and signed evidence.

export const Classification = t.keyof({
  PERMITTED_BY_OBSERVED_DECLARATION: null,
  PROHIBITED_BY_OBSERVED_DECLARATION: null,
  LICENSE_REQUIRED: null,
  NO_MACHINE_READABLE_DECLARATION: null,
  CONFLICT: null,
  UNKNOWN: null,
});
export type Classification = t.TypeOf<typeof Classification>;

export const Decision = t.keyof({ ALLOW_DECLARED: null, DENY_DECLARED: null, LICENSE_REQUIRED: null, UNKNOWN: null });
export type Decision = t.TypeOf<typeof Decision>;

/** Where a declaration was observed. `resource` is the inspected page itself (status, headers). */
export const Channel = t.keyof({
  robots: null,
  'link-header': null,
  'html-link': null,
  'html-inline': null,
  resource: null,
  supplied: null,
});
export type Channel = t.TypeOf<typeof Channel>;

/** One step of the explanation: which document, scope, license and rule produced an outcome. */
export const Reason = t.type({
  rule: t.string,
  outcome: t.string,
  channel: Channel,
  document_url: t.string,
  document_sha256: t.union([t.string, t.null]),
  /** The matched `<content url>` as written (the scope), or null when no content decided. */
  content_url: t.union([t.string, t.null]),
  content_index: t.union([t.number, t.null]),
  license_index: t.union([t.number, t.null]),
  detail: t.string,
});
export type Reason = t.TypeOf<typeof Reason>;

/** From most permissive to most restrictive; used to combine tokens (rag-ingestion) and in tests. */
export const DECISION_RESTRICTIVENESS: Readonly<Record<Decision, number>> = {
  ALLOW_DECLARED: 0,
  LICENSE_REQUIRED: 1,
  UNKNOWN: 2,
  DENY_DECLARED: 3,
};

export const CLASSIFICATION_RESTRICTIVENESS: Readonly<Record<Classification, number>> = {
  PERMITTED_BY_OBSERVED_DECLARATION: 0,
  LICENSE_REQUIRED: 1,
  NO_MACHINE_READABLE_DECLARATION: 2,
  UNKNOWN: 3,
  CONFLICT: 4,
  PROHIBITED_BY_OBSERVED_DECLARATION: 5,
};

/** The single-resource decision for a classification (docs/decisions.md, "RSL reading"). */
export function decisionFor(c: Classification): Decision {
  switch (c) {
    case 'PERMITTED_BY_OBSERVED_DECLARATION':
      return 'ALLOW_DECLARED';
    case 'PROHIBITED_BY_OBSERVED_DECLARATION':
      return 'DENY_DECLARED';
    case 'LICENSE_REQUIRED':
      return 'LICENSE_REQUIRED';
    default:
      return 'UNKNOWN';
  }
}
