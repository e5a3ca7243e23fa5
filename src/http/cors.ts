import cors from '@koa/cors';
import type Koa from 'koa';

// CORS for buyers running in a browser on another origin (the buyer core in packages/buyer is
// browser-safe). Only the origins in CORS_ORIGINS are answered; the headers a buyer sends are
// allowed and the payment headers it must read are exposed (a browser hides every other header).
// No credentials: the claim and payment travel in headers the buyer sets itself, never in cookies.

export const BUYER_REQUEST_HEADERS = [
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
  'X-Service-Claim',
  'X-Service-Request',
  'X-Service-Payment-Intent',
  'PAYMENT-SIGNATURE',
  'SIGN-IN-WITH-X',
] as const;

export const BUYER_READABLE_HEADERS = ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'Retry-After', 'X-Request-Id'] as const;

/** The CORS middleware for `origins`, or undefined when no browser origin is allowed. */
export function browserCors(origins: readonly string[]): Koa.Middleware | undefined {
  if (origins.length === 0) return undefined;
  const allowed = new Set(origins);
  return cors({
    // Returning '' makes @koa/cors answer without any Access-Control-* header: the browser refuses.
    origin: (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'POST', 'OPTIONS'],
    allowHeaders: [...BUYER_REQUEST_HEADERS],
    exposeHeaders: [...BUYER_READABLE_HEADERS],
    maxAge: 600,
  });
}
