import * as t from 'io-ts';
import { strictType } from '@rights-preflight/wire/contract/decode.js';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';
import { inspectDocument, type InspectOutcome, type InspectQuestion } from './inspect-document.js';
import type { ParseCache } from './parse-cache.js';
import { InspectPurpose, NullableGeo, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import { TokenReading } from './reading.js';
import { Classification, Decision } from '@rights-preflight/wire/rsl/vocabulary.js';

// The free inspection's wire shapes (POST /v1/rights/inspect), and its answer built from an outcome.
// The answer is built, checked against its codec and serialized where the document was inspected (the
// worker thread), so the event loop only reads the request and writes the text back.

export const InspectRequest = strictType(
  { resource: t.string, purpose: InspectPurpose, xml: t.string },
  { user_class: UserClass, geo: NullableGeo },
  'InspectRequest',
);
export type InspectRequest = t.TypeOf<typeof InspectRequest>;

export const INSPECTION_NOTICE =
  'Inspection of the XML you supplied, nothing else: the resource was not fetched, nothing was observed or signed, ' +
  'and nothing was charged. ' +
  'This is not a report, not a license, not legal advice and not legal clearance.';

export const InspectResponse = t.type({
  kind: t.literal('inspection'),
  report: t.literal(false),
  legal_clearance: t.literal(false),
  fetched: t.literal(false),
  charge_micro: t.literal('0'),
  notice: t.string,
  resource: t.string,
  purpose: InspectPurpose,
  user_class: UserClass,
  geo: t.union([t.string, t.null]),
  classification: Classification,
  decision: Decision,
  tokens: t.array(TokenReading),
  document: t.type({
    sha256: t.string,
    bytes: t.number,
    parsed: t.boolean,
    conformant: t.boolean,
    failure: t.union([t.type({ code: t.string, message: t.string }), t.null]),
    problems: t.array(
      t.type({
        severity: t.keyof({ error: null, warning: null }),
        code: t.string,
        message: t.string,
        line: t.union([t.number, t.null]),
      }),
    ),
  }),
});
export type InspectResponse = t.TypeOf<typeof InspectResponse>;

/** The answer to an inspection, checked against InspectResponse (a body it rejects throws: a logged 500). */
export function inspectAnswerText(xml: string, q: InspectQuestion, outcome: InspectOutcome): string {
  const { sha256, parse, evaluation } = outcome;
  const answer: InspectResponse = {
    kind: 'inspection',
    report: false,
    legal_clearance: false,
    fetched: false,
    charge_micro: '0',
    notice: INSPECTION_NOTICE,
    resource: q.resource,
    purpose: q.purpose,
    user_class: q.userClass,
    geo: q.geo,
    classification: evaluation.classification,
    decision: evaluation.decision,
    tokens: evaluation.tokens.map((e) => ({
      token: e.token,
      classification: e.classification,
      decision: e.decision,
      obligations: e.obligations,
      reasons: e.reasons,
    })),
    document: {
      sha256,
      bytes: Buffer.byteLength(xml, 'utf8'),
      parsed: parse.ok,
      conformant: parse.ok && parse.conformant,
      failure: parse.ok ? null : { code: parse.code, message: parse.message },
      problems: parse.problems.map((p) => ({
        severity: p.severity,
        code: p.code,
        message: p.message,
        line: p.line ?? null,
      })),
    },
  };
  return JSON.stringify(checkedBody(InspectResponse, answer)); // e.g. never a reading without a classification
}

/** Inspects `xml` and answers in one step: what a worker of the pool runs, and the route in process. */
export function inspectionAnswer(xml: string, q: InspectQuestion, cache?: ParseCache): string {
  return inspectAnswerText(xml, q, inspectDocument(xml, q, cache));
}
