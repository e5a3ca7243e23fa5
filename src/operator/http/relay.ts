import type Router from '@koa/router';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { readJsonBody } from '../../http/json-body.js';
import type { OperatorDeps } from '../operator-deps.js';
import { attachedSession } from '../session.js';
import { UsageError } from '../usage-error.js';
import { runUseCase, UseCaseRequest, type UseCaseAnswer } from '../use-cases.js';

// POST /operator/v1/use-case: one use-case of `npm run ops` (use-cases.ts), run here on the service's
// open store and read models while the service runs (the embedded store admits one process). The CLI
// checked its command line and sends the structured request; it prints the answer as a local run
// would (ops/client/relayed-service.ts). A refusal is part of the result; an error comes back as what
// the CLI would have caught: a usage error, or any other failure by its message.

export function relayRoutes(router: Router, deps: OperatorDeps): void {
  const session = attachedSession(deps);
  router.post('/use-case', async (ctx) => {
    const request = decodeOrThrow(UseCaseRequest, await readJsonBody(ctx));
    let answer: UseCaseAnswer;
    try {
      answer = { result: await runUseCase(session, request) };
    } catch (err) {
      if (err instanceof UsageError) answer = { usage: err.message };
      else {
        deps.log.error({ err: { message: (err as Error)?.message }, use: request.use }, 'operator use-case failed');
        answer = { failed: (err as Error)?.message ?? String(err) };
      }
    }
    ctx.body = answer;
  });
}
