import type Koa from 'koa';
import Router from '@koa/router';
import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import { Refusal } from '../../packages/buyer/src/wire/refusal.js';
import { clientAddress, TRUST_PROXY_OFF, type TrustProxy } from './trust-proxy.js';

// Per-client rate limits for every public operation that costs the service work or may consume a
// publisher's quota before anything is paid: inspect parses untrusted XML; quote, preflight, the gate
// and the MCP quote tool fetch from publishers. A token bucket per (limit, client): `burst` requests at
// once, refilled at `perMinute`. Over the limit: 429 RATE_LIMITED with Retry-After (whole seconds until
// the next token); through MCP the same refusal is the tool's error. The limits are published in
// capabilities.
//
// The limit is chosen by the route that will answer, never by comparing the path's spelling: the
// requests are matched by @koa/router with the options the service's routers use, so every spelling
// the router sends to a handler (`/v1/rights/quote/`, `/V1/RIGHTS/QUOTE`) spends the same bucket. A
// limit may name other ways into the same operation (the MCP quote tool spends the quote's bucket).
// The client is the socket's address unless TRUST_PROXY says which proxies to believe
// (src/http/trust-proxy.ts); IPv6 clients are grouped by their /64, since one host usually holds a
// whole /64. See docs/decisions.md, "One limiter on the route, not the spelling".

export interface RateLimit {
  perMinute: number;
  burst: number;
}
export interface RateLimitedRoute {
  method: 'POST';
  path: string;
  /** The bucket's name, and the key of capabilities `rate_limits`. */
  name: string;
  limit: RateLimit;
  /** MCP tools that perform the same operation and spend this bucket. */
  mcpTools?: readonly string[];
}

export interface RateLimits {
  /** Spends one request of every limited route the router would match; place it before the routers. */
  middleware: Koa.Middleware;
  /** Spends one request of the limit `name` for the client of `req`; throws RATE_LIMITED when none is left. */
  spend(name: string, req: IncomingMessage): void;
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

export function createRateLimits(
  routes: readonly RateLimitedRoute[],
  options: { trustProxy?: TrustProxy; now?: () => number } = {},
): RateLimits {
  const trust = options.trustProxy ?? TRUST_PROXY_OFF;
  const now = options.now ?? (() => performance.now());
  const limits = new Map(routes.map((r) => [r.name, r.limit]));
  const buckets = new Map<string, Bucket>();

  const spend = (name: string, req: IncomingMessage): void => {
    const limit = limits.get(name);
    if (!limit) throw new Error(`no rate limit named ${name}`);
    const { perMinute, burst } = limit;
    const forwarded = req.headers['x-forwarded-for'];
    const client = clientAddress(
      req.socket.remoteAddress,
      Array.isArray(forwarded) ? forwarded.join(', ') : forwarded,
      trust,
    );
    const key = `${name} ${clientKey(client)}`;
    const t = now();
    const b = buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 60_000) * perMinute);
    b.at = t;
    if (b.tokens < 1) {
      buckets.set(key, b);
      const retryAfter = Math.max(1, Math.ceil(((1 - b.tokens) * 60) / perMinute));
      throw new Refusal(
        'RATE_LIMITED',
        `too many ${name} requests from this address; retry in ${retryAfter} s`,
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
  };

  // The same Router class and default options (case-insensitive, trailing slash optional) as the routes.
  const matcher = new Router();
  for (const r of routes)
    matcher.register(r.path, [r.method], (ctx, next) => {
      spend(r.name, ctx.req);
      return next();
    });
  return { middleware: matcher.routes() as Koa.Middleware, spend };
}
