import Koa from 'koa';
import Router from '@koa/router';
import { ApiError, errorBody } from './errors.js';
import { requestIdOf } from './request-id.js';
import type { Logger } from '../log.js';

export interface AppDeps {
  log: Logger;
  ready: () => Promise<boolean>;
  routers: Router[];
  /** Middleware outside everything else, in order (request metrics, CORS). */
  outer?: Koa.Middleware[];
}

/** Maps thrown ApiErrors (and anything unexpected) to the one JSON error shape; logs without secrets. */
function errorMiddleware(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdOf(ctx);
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError(404, 'NOT_FOUND', 'no such endpoint');
      }
    } catch (err) {
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = errorBody(err.code, err.message, err.details);
      } else {
        log.error({ requestId, err: { message: (err as Error)?.message, name: (err as Error)?.name } }, 'unhandled error');
        ctx.status = 500;
        ctx.body = errorBody('INTERNAL', 'internal error', { request_id: requestId });
      }
    } finally {
      // Only method, path and status: headers and bodies may carry claims, bindings and signatures.
      log.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
    }
  };
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  for (const m of deps.outer ?? []) app.use(m);
  app.use(errorMiddleware(deps.log));
  const health = new Router();
  health.get('/healthz', (ctx) => { ctx.body = { status: 'ok' }; });
  health.get('/readyz', async (ctx) => {
    const ok = await deps.ready().catch(() => false);
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ready' : 'not_ready' };
  });
  app.use(health.routes());
  for (const r of deps.routers) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }
  return app;
}
