import test from 'ava';
import { createApp } from '../../src/http/app.js';
import { clientKey, rateLimitMiddleware, type RateLimitedRoute } from '../../src/http/rate-limit.js';
import { inspectRouter } from '../../src/http/routes/inspect.js';
import { createLogger } from '../../src/log.js';
import { loadConfig } from '../../src/config.js';
import { listen, type Listening } from '../support/listen.js';

// The free inspection (and the quote) are rate-limited per client address: 429 RATE_LIMITED with
// Retry-After once the burst is spent; other routes are not counted.

let server: Listening;
let base: string;
let clock = 0;
const ROUTES: RateLimitedRoute[] = [
  { method: 'POST', path: '/v1/rights/inspect', name: 'inspect', limit: { perMinute: 6, burst: 2 } },
];

test.before(async () => {
  server = await listen(
    createApp({
      log: createLogger('silent'),
      ready: async () => true,
      middleware: [rateLimitMiddleware(ROUTES, () => clock)],
      routers: [inspectRouter()],
    }),
  );
  base = server.base;
});
test.after.always(() => server.close());

const inspect = () =>
  fetch(`${base}/v1/rights/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      resource: 'https://publisher.test/a',
      purpose: 'search',
      xml: '<rsl xmlns="https://rslstandard.org/rsl"/>',
    }),
  });

test.serial(
  'after the burst, 429 RATE_LIMITED with Retry-After; a token comes back at the configured rate',
  async (t) => {
    t.is((await inspect()).status, 200);
    t.is((await inspect()).status, 200);
    const limited = await inspect();
    t.is(limited.status, 429);
    t.is(limited.headers.get('retry-after'), '10'); // 6 per minute: one every 10 s
    const body = (await limited.json()) as any;
    t.is(body.error.code, 'RATE_LIMITED');
    t.deepEqual(body.error.details.limit, { requests_per_minute: 6, burst: 2 });
    t.is((await fetch(`${base}/healthz`)).status, 200, 'other routes are not limited');
    clock += 10_000;
    t.is((await inspect()).status, 200);
    t.is((await inspect()).status, 429);
  },
);

test('clients are told apart by address; IPv6 by its /64', (t) => {
  t.is(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  t.is(clientKey('2001:db8:1:2:aaaa::1'), clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
  t.not(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
  t.is(clientKey('2001:db8::1'), '2001:db8:0:0');
  t.not(clientKey('203.0.113.7'), clientKey('203.0.113.8'));
});

test('the limits are configurable and default to published values', (t) => {
  t.deepEqual(loadConfig({}).rateLimits, {
    inspect: { perMinute: 60, burst: 20 },
    quote: { perMinute: 30, burst: 10 },
  });
  t.deepEqual(loadConfig({ RATE_LIMIT_INSPECT_PER_MINUTE: '5', RATE_LIMIT_INSPECT_BURST: '1' }).rateLimits.inspect, {
    perMinute: 5,
    burst: 1,
  });
  t.throws(() => loadConfig({ RATE_LIMIT_QUOTE_PER_MINUTE: '0' }), { message: /RATE_LIMIT_QUOTE_PER_MINUTE/ });
});
