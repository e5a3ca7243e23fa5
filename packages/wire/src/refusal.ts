// A request the service refuses, in words every transport can present: a stable code (the status a
// transport gives it is src/http/status-of.ts's business, MCP's is the code itself), a message for a
// person, details that never carry a secret, and, for a refusal that passes by itself, the seconds
// after which the same request may be retried. Domain modules throw it; they never pick a status.

export class Refusal extends Error {
  override readonly name: string = 'Refusal';
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}
