import { evaluatePurpose, type DocumentInput, type PurposeEvaluation } from './evaluate.js';
import { parseRsl } from './parse.js';
import type { ParseResult } from './model.js';
import type { InspectPurpose, UserClass } from './purposes.js';
import { createHash } from 'node:crypto';

// The free inspection's work on one supplied document: parse, then evaluate it as the only
// association (channel `supplied`). Pure and synchronous; the same function runs in the worker
// pool (inspect-pool.ts) and in process. Plain data in, plain data out (structured-clone safe).

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

export function inspectDocument(xml: string, q: InspectQuestion): InspectOutcome {
  return evaluateParsed(xml, q, parseRsl(xml));
}

/** Evaluation of an already settled parse (the pool uses it when a worker had to be stopped). */
export function evaluateParsed(xml: string, q: InspectQuestion, parse: ParseResult): InspectOutcome {
  const sha256 = createHash('sha256').update(xml, 'utf8').digest('hex');
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
