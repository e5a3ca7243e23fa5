import test from 'ava';
import Koa from 'koa';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { createApp } from '../../src/http/app.js';
import { clientKey, createRateLimits, type RateLimitedRoute } from '../../src/http/rate-limit.js';
import { TrustProxySetting } from '../../src/config/trust-proxy-setting.js';
import { clientAddress } from '../../src/http/trust-proxy.js';
import { inspectRouter } from '../../src/http/routes/inspect.js';
import { createLogger } from '../../src/runtime/log.js';
import { loadConfig } from '../../src/config/config.js';
import { listen, type Listening } from '../support/listen.js';

// The free inspection (and the quote) are rate-limited per client address: 429 RATE_LIMITED with
// Retry-After once the burst is spent; other routes are not counted.

// A bare app (test/README.md, Worlds): the limiter's own arithmetic needs a clock the test moves, which the
// composed service does not take; the composed service's limits: rate-limit-routes.test.ts (the fast world).
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
      middleware: [createRateLimits(ROUTES, { now: () => clock }).middleware],
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
    preflight: { perMinute: 30, burst: 10 },
    gate: { perMinute: 30, burst: 10 },
    mcp: { perMinute: 120, burst: 60 },
  });
  t.deepEqual(loadConfig({ RATE_LIMIT_GATE_PER_MINUTE: '7', RATE_LIMIT_GATE_BURST: '2' }).rateLimits.gate, {
    perMinute: 7,
    burst: 2,
  });
  t.throws(() => loadConfig({ RATE_LIMIT_PREFLIGHT_BURST: '-1' }), { message: /RATE_LIMIT_PREFLIGHT_BURST/ });
  t.deepEqual(loadConfig({ RATE_LIMIT_INSPECT_PER_MINUTE: '5', RATE_LIMIT_INSPECT_BURST: '1' }).rateLimits.inspect, {
    perMinute: 5,
    burst: 1,
  });
  t.throws(() => loadConfig({ RATE_LIMIT_QUOTE_PER_MINUTE: '0' }), { message: /RATE_LIMIT_QUOTE_PER_MINUTE/ });
});

test('TRUST_PROXY: off by default; a hop count or addresses and CIDRs; anything else names the variable', (t) => {
  t.deepEqual(loadConfig({}).trustProxy, { kind: 'off' });
  t.deepEqual(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, { kind: 'off' });
  t.deepEqual(loadConfig({ TRUST_PROXY: '2' }).trustProxy, { kind: 'hops', hops: 2 });
  const ranges = loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).trustProxy;
  t.is(ranges.kind, 'ranges');
  t.deepEqual(ranges.kind === 'ranges' ? ranges.ranges : [], ['10.0.0.0/8', '192.0.2.7/32', 'fd00::/8']);
  for (const bad of ['true', '17', '10.0.0.0/33', 'proxy.internal', '10.0.0.0/8,', '1.2.3.4/8/9'])
    t.throws(() => loadConfig({ TRUST_PROXY: bad }), { message: /TRUST_PROXY/ }, bad);
  t.true(isRight(TrustProxySetting.decode('0')));
  t.true(isLeft(TrustProxySetting.decode(3)));
});

test('a hop count picks the client exactly as Koa does with app.proxy and maxIpsCount', async (t) => {
  const forwarded = [
    undefined,
    '203.0.113.1',
    '203.0.113.1, 198.51.100.2',
    ' 203.0.113.1 ,198.51.100.2,192.0.2.3',
    ', 198.51.100.2',
    '2001:db8::1, 10.0.0.1',
    'forged, 203.0.113.1, 198.51.100.2',
  ];
  for (const hops of [1, 2, 3]) {
    const koa = new Koa();
    koa.proxy = true;
    koa.maxIpsCount = hops;
    koa.use((ctx) => {
      const ours = clientAddress(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for') || undefined, {
        kind: 'hops',
        hops,
      });
      ctx.body = { koa: ctx.ip, ours };
    });
    const s = await listen(koa);
    try {
      for (const xff of forwarded) {
        const r = (await (await fetch(s.base, { headers: xff ? { 'x-forwarded-for': xff } : {} })).json()) as any;
        t.is(r.ours, r.koa, `hops ${hops}, X-Forwarded-For ${xff}`);
      }
    } finally {
      await s.close();
    }
  }
});

test('a CIDR list walks back from the socket through trusted proxies to the first untrusted address', (t) => {
  const trust = TrustProxySetting.decode('127.0.0.1,10.0.0.0/8');
  if (isLeft(trust)) return t.fail();
  const list = trust.right;
  t.is(clientAddress('127.0.0.1', '203.0.113.9', list), '203.0.113.9');
  t.is(clientAddress('::ffff:127.0.0.1', '203.0.113.9', list), '203.0.113.9', 'IPv4-mapped socket');
  t.is(clientAddress('127.0.0.1', 'forged, 203.0.113.9, 10.1.2.3', list), '203.0.113.9', 'forged entries stay left');
  t.is(clientAddress('198.51.100.4', '203.0.113.9', list), '198.51.100.4', 'an untrusted peer is the client');
  t.is(clientAddress('127.0.0.1', '10.0.0.1, 10.0.0.2', list), '10.0.0.1', 'all trusted: the leftmost');
  t.is(clientAddress('127.0.0.1', undefined, list), '127.0.0.1', 'no header: the socket');
  t.is(clientAddress('127.0.0.1', '203.0.113.9', { kind: 'off' }), '127.0.0.1', 'off: the header is ignored');
});
