import type Koa from 'koa';
import type { Logger } from '../runtime/log.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { errorBody } from './errors.js';
import { requestIdIn } from './request-id.js';
import { presentRefusal, STATUS_OF } from './status-of.js';

/** Maps thrown refusals (status from the one table) and anything unexpected to the one JSON error
 *  shape; logs without secrets. */
export function answerErrors(log: Logger, statuses: Readonly<Record<string, number>> = STATUS_OF): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const presented = err instanceof Refusal ? presentRefusal(err, statuses) : undefined;
      if (presented) {
        ctx.status = presented.status;
        ctx.set(presented.headers);
        ctx.body = errorBody(presented.code, presented.message, presented.details);
        return;
      }
      const requestId = requestIdIn(ctx);
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
  };
}

/** The router's bodiless 404, 405 and 501 become refusals, so they get the one JSON error shape too. */
export function refuseBodilessAnswers(): Koa.Middleware {
  return async (ctx, next) => {
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
  };
}
