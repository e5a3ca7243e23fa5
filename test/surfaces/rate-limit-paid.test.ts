import test from 'ava';
import Router from '@koa/router';
import { createApp } from '../../src/http/app.js';
import { createRateLimits, type RateLimitedRoute } from '../../src/http/rate-limit.js';
import { createLogger } from '../../src/runtime/log.js';
import { listen, type Listening } from '../support/listen.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';

// Paid work is not free work, at the limiter (src/http/rate-limit.ts): on a `paid` route a request with a
// payment is admitted by its product; the payer check here is a stand-in for money-path/paid-admission.ts
// (a payment "verifies" when it names a known payer), the clock is fake and never moves.

// A bare app (test/README.md, Worlds): the limiter alone, with a stand-in payer check and a route that holds
// requests open on demand, neither of which the composed service has.
let server: Listening;
const clock = 0;
const ROUTES: RateLimitedRoute[] = [
  { method: 'POST', path: '/work', name: 'gate', limit: { perMinute: 6, burst: 2 }, paid: true },
];
const release: (() => void)[] = [];
const limits = createRateLimits(ROUTES, {
  now: () => clock,
  paid: {
    payerOf: async (sig) => (sig.startsWith('good:') ? sig.slice(5) : undefined),
    concurrentPerPayer: 2,
  },
});

test.before(async () => {
  const router = new Router();
  router.post('/work', async (ctx) => {
    if (ctx.get('x-refuse-early')) throw new Refusal('MALFORMED_JSON', 'refused before admission');
    await limits.admission(ctx)({ resource: 'r', key: 'k', inputSha256: 'i', priceMicro: 1n, maxTotalMicro: '1' });
    if (ctx.get('x-hold')) await new Promise<void>((r) => release.push(r));
    ctx.body = { ok: true };
  });
  server = await listen(
    createApp({
      log: createLogger('silent'),
      ready: async () => true,
      middleware: [limits.middleware],
      routers: [router],
    }),
  );
});
test.after.always(() => server.close());

const work = (headers: Record<string, string> = {}) =>
  fetch(`${server.base}/work`, { method: 'POST', headers }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

test.serial('unpaid and unverified requests share the bucket; verified payments never spend it', async (t) => {
  t.is(await work({ 'payment-signature': 'good:0xa' }), 200);
  t.is(await work(), 200);
  t.is(await work({ 'payment-signature': 'forged' }), 200, 'an unverified payment spends the second token');
  t.is(await work(), 429, 'the bucket is spent');
  t.is(await work({ 'payment-signature': 'forged' }), 429, 'a forged payment is refused with it');
  t.is(await work({ 'payment-signature': 'good:0xa' }), 200, 'a verified one is not');
  t.is(await work({ 'payment-signature': 'good:0xb', 'x-refuse-early': '1' }), 400);
});

test.serial('paid requests are bounded per payer by how many are in progress at once', async (t) => {
  const held = [
    work({ 'payment-signature': 'good:0xc', 'x-hold': '1' }),
    work({ 'payment-signature': 'good:0xc', 'x-hold': '1' }),
  ];
  while (release.length < 2) await new Promise((r) => setImmediate(r));
  t.is(await work({ 'payment-signature': 'good:0xc' }), 429, 'a third at once is refused');
  t.is(await work({ 'payment-signature': 'good:0xd' }), 200, 'another payer is not');
  for (const r of release.splice(0)) r();
  t.deepEqual(await Promise.all(held), [200, 200]);
  t.is(await work({ 'payment-signature': 'good:0xc' }), 200, 'finished requests give their place back');
});
