import { refusalStatus } from './refusal-status.js';

// A refusal of the operator API, thrown by a route and answered by the listener's one error
// middleware as `{refused: {code, message, details?}}` with the status of refusal-status.ts.

export class OperatorRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly status = refusalStatus(code),
  ) {
    super(message);
  }
}

/** Unwraps an operator function's `{refused}` outcome into a throw, so routes read straight on. */
type Refusal = { refused: { code: string; message: string; details?: Record<string, unknown> } };

export function orRefuse<T extends object>(outcome: T): Exclude<T, Refusal> {
  if ('refused' in outcome) {
    const r = (outcome as Refusal).refused;
    throw new OperatorRefused(r.code, r.message, r.details);
  }
  return outcome as Exclude<T, Refusal>;
}
