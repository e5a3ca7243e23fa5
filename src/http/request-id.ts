import { randomUUID } from 'node:crypto';
import type Koa from 'koa';

// X-Request-Id: a caller's own id is used (and echoed) when it is safe to log and to put in a header,
// so a buyer or a proxy can follow its request through our logs; anything else gets a fresh UUID.
const VALID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdOf(ctx: Koa.Context): string {
  const incoming = ctx.get('X-Request-Id');
  return VALID.test(incoming) ? incoming : randomUUID();
}

/** The id the request was given by `assignRequestId` (the access line and error bodies name it). */
export const requestIdIn = (ctx: Koa.Context): string => (ctx.state as { requestId: string }).requestId;

/** Gives the request its id, once, and echoes it in X-Request-Id. */
export function assignRequestId(): Koa.Middleware {
  return async (ctx, next) => {
    const requestId = requestIdOf(ctx);
    (ctx.state as { requestId: string }).requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    await next();
  };
}
