import type Koa from 'koa';
import { unredactedChild, type Logger } from '../runtime/log.js';
import { requestIdIn } from './request-id.js';

/** One access line per request, written whatever happened, with the status the caller got. */
export function accessLog(log: Logger): Koa.Middleware {
  // The access line's fields are fixed and never secret: it skips the redaction pass.
  const access = unredactedChild(log);
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // Only method, path and status: headers and bodies may carry claims, bindings and signatures.
      access.info(
        {
          requestId: requestIdIn(ctx),
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
