import type Koa from 'koa';
import Router from '@koa/router';
import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { TRUST_PROXY_OFF, type TrustProxy } from '../config/trust-proxy-setting.js';
import { clientAddress } from './trust-proxy.js';
import type { Admit, AdmissionQuestion } from '../money-path/paid-admission.js';

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
//
// Paid work is not free work (docs/decisions.md, "Paid work is not free work"): on a route marked `paid`, a
// request carrying PAYMENT-SIGNATURE spends nothing here; its product asks `admission(ctx)` once it knows
// the question, before it fetches anything. A payment that verifies for exactly that request admits it as
// paid work, bounded per payer only by `concurrentPerPayer` requests at once; anything else spends the
// free bucket as an unpaid request does (and a request that never got that far spends it on the way out).

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
  /** A request that pays for this route is admitted by its product (`admission`), not by the bucket. */
  paid?: boolean;
}

export interface PaidWork {
  /** The payer of a payment that verifies for exactly the request asked, or undefined. */
  payerOf: (paymentSignature: string, q: AdmissionQuestion) => Promise<string | undefined>;
  /** Paid requests one payer may have in progress at once; more are 429 RATE_LIMITED. */
  concurrentPerPayer: number;
}

export interface RateLimits {
  /** Spends one request of every limited route the router would match; place it before the routers. */
  middleware: Koa.Middleware;
  /** Spends one request of the limit `name` for the client of `req`; throws RATE_LIMITED when none is left. */
  spend(name: string, req: IncomingMessage): void;
  /** What a product on a `paid` route calls before its costly work (a no-op when the bucket was spent already). */
  admission(ctx: Koa.Context): Admit;
}

/** A request on a `paid` route that carries a payment, until its product decides whether it pays. */
interface Pending {
  name: string;
  /** When the request arrived (the limiter's clock). */
  at: number;
  decided: boolean;
  payer?: string;
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
  options: { trustProxy?: TrustProxy; now?: () => number; paid?: PaidWork } = {},
): RateLimits {
  const trust = options.trustProxy ?? TRUST_PROXY_OFF;
  const now = options.now ?? (() => performance.now());
  const limits = new Map(routes.map((r) => [r.name, r.limit]));
  const buckets = new Map<string, Bucket>();

  /**
   * `quiet`: the request is answered already; take the token if there is one, refuse nothing. `at`: when the
   * request arrived (a payment that did not verify is charged as of then, not after its verification).
   */
  const spend = (name: string, req: IncomingMessage, quiet = false, at?: number): void => {
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
    const t = at ?? now();
    const b = buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + (Math.max(0, t - b.at) / 60_000) * perMinute);
    b.at = Math.max(b.at, t);
    if (b.tokens < 1) {
      buckets.set(key, b);
      if (quiet) return;
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

  const paid = options.paid;
  const pendingOf = new WeakMap<IncomingMessage, Pending>();
  const inProgress = new Map<string, number>();
  const release = (payer: string) => {
    const n = (inProgress.get(payer) ?? 1) - 1;
    if (n > 0) inProgress.set(payer, n);
    else inProgress.delete(payer);
  };

  const admission =
    (ctx: Koa.Context): Admit =>
    async (q) => {
      const pending = pendingOf.get(ctx.req);
      if (!pending || pending.decided) return;
      pending.decided = true;
      const payer = paid && (await paid.payerOf(ctx.get('payment-signature'), q))?.toLowerCase();
      if (!payer) return spend(pending.name, ctx.req, false, pending.at);
      const limit = paid.concurrentPerPayer;
      if ((inProgress.get(payer) ?? 0) >= limit) {
        throw new Refusal(
          'RATE_LIMITED',
          `too many paid requests in progress for this payer (at most ${limit} at once); retry in 1 s`,
          { limit: { concurrent_per_payer: limit }, retry_after_seconds: 1 },
          1,
        );
      }
      inProgress.set(payer, (inProgress.get(payer) ?? 0) + 1);
      pending.payer = payer;
    };

  // The same Router class and default options (case-insensitive, trailing slash optional) as the routes.
  const matcher = new Router();
  for (const r of routes)
    matcher.register(r.path, [r.method], async (ctx, next) => {
      if (!(paid && r.paid && ctx.get('payment-signature'))) {
        spend(r.name, ctx.req);
        return next();
      }
      const pending: Pending = { name: r.name, at: now(), decided: false };
      pendingOf.set(ctx.req, pending);
      try {
        await next();
      } finally {
        if (!pending.decided) spend(r.name, ctx.req, true, pending.at);
        if (pending.payer) release(pending.payer);
      }
    });
  return { middleware: matcher.routes() as Koa.Middleware, spend, admission };
}
