import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../runtime/log.js';
import { accessLog } from './access-log.js';
import { answerErrors, refuseBodilessAnswers } from './error-answers.js';
import { assignRequestId } from './request-id.js';
import type { ReadinessBody } from '@rights-preflight/wire/contract/readiness.js';

export interface AppDeps {
  log: Logger;
  /** The status of each refusal code (./status-of.ts's table, with the products' own codes). */
  statuses?: Readonly<Record<string, number>>;
  /** Readiness: its body (packages/wire/src/contract/readiness.ts), or only whether ready (tests without checks). */
  ready: () => Promise<boolean | ReadinessBody>;
  routers: Router[];
  /** Run after error mapping and before any route (e.g. rate limits). */
  middleware?: Koa.Middleware[];
  /** Middleware outside everything else, in order (request metrics, CORS). */
  outer?: Koa.Middleware[];
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  for (const m of deps.outer ?? []) app.use(m);
  // A request gets its id, then its access line, then its error answer: four jobs, one middleware each.
  app.use(assignRequestId());
  app.use(accessLog(deps.log));
  app.use(answerErrors(deps.log, deps.statuses));
  app.use(refuseBodilessAnswers());
  for (const m of deps.middleware ?? []) app.use(m);
  const health = new Router();
  health.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  health.get('/readyz', async (ctx) => {
    const answer = await deps.ready().catch(() => false);
    const body: ReadinessBody =
      typeof answer !== 'boolean'
        ? answer
        : answer
          ? { status: 'ready', phase: 'ready', failing: [] }
          : { status: 'not_ready', phase: 'ready', failing: [{ check: 'lifecycle', reason: 'error' }] };
    ctx.status = body.status === 'ready' ? 200 : 503;
    ctx.body = body;
  });
  app.use(health.routes());
  for (const r of deps.routers) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }
  return app;
}
