import type Koa from 'koa';
import type { Histogram } from 'prom-client';

// Times every request on the public port. The route label is the router's template
// (`/v1/rights/reports/:id`), never the path itself: paths carry purchase ids.
export function requestMetrics(duration: Histogram<'method' | 'route' | 'status'>): Koa.Middleware {
  return async (ctx, next) => {
    const end = duration.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      end({ method: ctx.method, route: typeof route === 'string' ? route : 'unmatched', status: String(ctx.status) });
    }
  };
}
