import Koa from 'koa';
import Router from '@koa/router';
import { Refusal } from '../../packages/buyer/src/wire/refusal.js';
import { errorBody } from './errors.js';
import { presentRefusal } from './status-of.js';
import { requestIdOf } from './request-id.js';
import { unredactedChild, type Logger } from '../log.js';
import type { ReadinessBody } from '../contract/readiness.js';

export interface AppDeps {
  log: Logger;
  /** Readiness: its body (src/contract/readiness.ts), or only whether ready (tests without checks). */
  ready: () => Promise<boolean | ReadinessBody>;
  routers: Router[];
  /** Run after error mapping and before any route (e.g. rate limits). */
  middleware?: Koa.Middleware[];
  /** Middleware outside everything else, in order (request metrics, CORS). */
  outer?: Koa.Middleware[];
}

/** Maps thrown refusals (status from the one table) and anything unexpected to the one JSON error
 *  shape; logs without secrets. */
function errorMiddleware(log: Logger): Koa.Middleware {
  // The access line's fields are fixed and never secret: it skips the redaction pass.
  const access = unredactedChild(log);
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdOf(ctx);
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new Refusal('NOT_FOUND', 'no such endpoint');
      }
      // The router's allowedMethods() answers these with an empty body; the Allow header it set stays.
      if (ctx.status === 405 && ctx.body == null)
        throw new Refusal('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on this endpoint`, {
          allow: ctx.response.get('Allow'),
        });
      if (ctx.status === 501 && ctx.body == null)
        throw new Refusal('METHOD_NOT_IMPLEMENTED', `${ctx.method} is not implemented by this service`);
    } catch (err) {
      const presented = err instanceof Refusal ? presentRefusal(err) : undefined;
      if (presented) {
        ctx.status = presented.status;
        ctx.set(presented.headers);
        ctx.body = errorBody(presented.code, presented.message, presented.details);
      } else {
        log.error(
          {
            requestId,
            err: { message: (err as Error)?.message, name: (err as Error)?.name, code: (err as Refusal)?.code },
          },
          'unhandled error',
        );
        ctx.status = 500;
        ctx.body = errorBody('INTERNAL', 'internal error', { request_id: requestId });
      }
    } finally {
      // Only method, path and status: headers and bodies may carry claims, bindings and signatures.
      access.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  for (const m of deps.outer ?? []) app.use(m);
  app.use(errorMiddleware(deps.log));
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
