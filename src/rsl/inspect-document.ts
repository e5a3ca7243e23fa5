import { createHash } from 'node:crypto';
import { evaluatePurpose, type DocumentInput, type PurposeEvaluation } from './evaluate/evaluate.js';
import type { ParseResult } from './parse/model.js';
import { parseRsl } from './parse/parse.js';
import type { ParseCache } from './parse-cache.js';
import type { InspectPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';

// The free inspection's work on one supplied document: parse, then evaluate it as the only
// association (channel `supplied`). Pure and synchronous; the same function runs in the worker
// pool (inspect-pool.ts), where contract/inspect.ts turns it into the answer's text, and in process.

export interface InspectQuestion {
  resource: string;
  purpose: InspectPurpose;
  userClass: UserClass;
  geo: string | null;
}

export interface InspectOutcome {
  sha256: string;
  parse: ParseResult;
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
    parse,
    evaluation: evaluatePurpose([supplied], {
      resource: q.resource,
      purpose: q.purpose,
      userClass: q.userClass,
      geo: q.geo,
    }),
  };
}
