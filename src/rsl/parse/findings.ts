import type { ParseFailureCode, Problem } from './model.js';

// How a parse stage reports. A Fatal ends the parse with no document (never a permission); a problem
// is noted on the document and the parse goes on (an error problem makes the document non-conformant).

export class Fatal extends Error {
  constructor(
    readonly code: ParseFailureCode,
    message: string,
  ) {
    super(message);
  }
}

export type ProblemFn = (severity: Problem['severity'], code: string, message: string) => void;
