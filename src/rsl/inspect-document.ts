import { createHash } from 'node:crypto';
import { evaluatePurpose, type DocumentInput, type PurposeEvaluation } from './evaluate.js';
import type { ParseFailureCode, ParseResult, Problem } from './model.js';
import { parseRsl } from './parse.js';
import type { ParseCache } from './parse-cache.js';
import type { InspectPurpose, UserClass } from './purposes.js';

// The free inspection's work on one supplied document: parse, then evaluate it as the only
// association (channel `supplied`). Pure and synchronous; the same function runs in the worker
// pool (inspect-pool.ts) and in process. Plain data in, plain data out (structured-clone safe), and
// only what the answer shows: the parsed document itself stays where it was parsed (copying it back
// from a worker cost more than evaluating it).

export interface InspectQuestion {
  resource: string;
  purpose: InspectPurpose;
  userClass: UserClass;
  geo: string | null;
}

/** What the answer says of the document's parse. */
export interface ParseSummary {
  ok: boolean;
  conformant: boolean;
  failure: { code: ParseFailureCode; message: string } | null;
  problems: Problem[];
}

export interface InspectOutcome {
  sha256: string;
  parse: ParseSummary;
  evaluation: PurposeEvaluation;
}

const sha256Of = (xml: string): string => createHash('sha256').update(xml, 'utf8').digest('hex');

/** Inspects `xml`; with a cache, a document parsed before is not parsed again. */
export function inspectDocument(xml: string, q: InspectQuestion, cache?: ParseCache): InspectOutcome {
  const sha256 = sha256Of(xml);
  return outcomeOf(sha256, q, cache ? cache.parsed(sha256, xml) : parseRsl(xml));
}

/** Evaluation of an already settled parse (the pool uses it when a worker had to be stopped). */
export function evaluateParsed(xml: string, q: InspectQuestion, parse: ParseResult): InspectOutcome {
  return outcomeOf(sha256Of(xml), q, parse);
}

function outcomeOf(sha256: string, q: InspectQuestion, parse: ParseResult): InspectOutcome {
  const supplied: DocumentInput = { channel: 'supplied', url: q.resource, sha256, parse, failure: null };
  return {
    sha256,
    parse: {
      ok: parse.ok,
      conformant: parse.ok && parse.conformant,
      failure: parse.ok ? null : { code: parse.code, message: parse.message },
      problems: parse.problems,
    },
    evaluation: evaluatePurpose([supplied], {
      resource: q.resource,
      purpose: q.purpose,
      userClass: q.userClass,
      geo: q.geo,
    }),
  };
}
