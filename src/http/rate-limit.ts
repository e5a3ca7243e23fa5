import type Koa from 'koa';
import { isIPv4 } from 'node:net';
import { Refusal } from '../refusal.js';

// Per-client-address rate limits for the public, unpaid endpoints that cost the service work
// (free inspection parses untrusted XML; a quote fetches from publishers). A token bucket per
// (route, client): `burst` requests at once, refilled at `perMinute`. Over the limit: 429
// RATE_LIMITED with Retry-After (whole seconds until the next token). The client is the socket's
// address (app.proxy is false: X-Forwarded-For is never trusted); IPv6 clients are grouped by
// their /64, since one host usually holds a whole /64. The limits are published in capabilities.

export interface RateLimit {
  perMinute: number;
  burst: number;
}
export interface RateLimitedRoute {
  method: string;
  path: string;
  name: string;
  limit: RateLimit;
}

interface Bucket {
  tokens: number;
  at: number;
}
const MAX_TRACKED = 50_000;

export function clientKey(address: string | undefined): string {
  const a = (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (a === '' || isIPv4(a)) return a;
  return ipv6Prefix64(a);
}

/** The first four groups of an IPv6 address, expanded (`2001:db8::1` → `2001:db8:0:0`). */
function ipv6Prefix64(a: string): string {
  const [head, tail] = a.split('%')[0]!.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const tl = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(Math.max(0, 8 - h.length - tl.length)).fill('0'), ...tl];
  return groups
    .slice(0, 4)
    .map((g) => (g === '' ? '0' : g.toLowerCase().replace(/^0+(?=.)/, '')))
    .join(':');
}

export function rateLimitMiddleware(
  routes: readonly RateLimitedRoute[],
  now: () => number = () => performance.now(),
): Koa.Middleware {
  const buckets = new Map<string, Bucket>();
  return async (ctx, next) => {
    const route = routes.find((r) => r.method === ctx.method && r.path === ctx.path);
    if (!route) return next();
    const { perMinute, burst } = route.limit;
    const key = `${route.name} ${clientKey(ctx.req.socket.remoteAddress)}`;
    const t = now();
    const b = buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 60_000) * perMinute);
    b.at = t;
    if (b.tokens < 1) {
      buckets.set(key, b);
      const retryAfter = Math.max(1, Math.ceil(((1 - b.tokens) * 60) / perMinute));
      throw new Refusal(
        'RATE_LIMITED',
        `too many ${route.name} requests from this address; retry in ${retryAfter} s`,
        { limit: { requests_per_minute: perMinute, burst }, retry_after_seconds: retryAfter },
        retryAfter,
      );
    }
    b.tokens -= 1;
    buckets.delete(key); // re-insert: the Map's order is then least recently used first
    buckets.set(key, b);
    if (buckets.size > MAX_TRACKED) {
      for (const k of buckets.keys()) {
        buckets.delete(k);
        if (buckets.size <= MAX_TRACKED / 2) break;
      }
    }
    return next();
  };
}
