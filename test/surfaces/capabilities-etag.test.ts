import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { capabilitiesRouter, type CapabilitiesDeps } from '../../src/http/routes/capabilities.js';
import { productCatalog } from '../../src/service/product-registry.js';

// Capabilities is built at most once a second and sent as ready JSON; its ETag ignores generated_at, so
// a client holding the same content gets 304, and a change of coverage changes the ETag.

// A bare app (test/README.md, Worlds): the capabilities router alone, on a clock and a coverage the test
// moves; the composed service's capabilities are in rate-limit-routes.test.ts and the fast world's tests.
async function serve(deps: CapabilitiesDeps) {
  const app = new Koa().use(capabilitiesRouter(deps).routes());
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/capabilities`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

/** One instance's capabilities deps: Base mainnet terms, one evidence key, every product but revalidation served. */
const depsOf = (coveredOrigins: () => string[], now: () => Date): CapabilitiesDeps => ({
  coveredOrigins,
  terms: {
    network: 'eip155:8453',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    payTo: '0x1111111111111111111111111111111111111111',
    eip712: { name: 'USD Coin', version: '2' },
    maxTimeoutSeconds: 300,
    settlementWindowSeconds: 68,
  },
  evidenceKeys: [{ key_id: 'k1', public_key: 'ab'.repeat(32) }],
  quoteTtlSeconds: 900,
  products: productCatalog()
    .capabilities()
    .map((p) => ({ ...p, enabled: p.endpoint !== '/v1/rights/revalidate' })),
  rateLimits: [],
  now,
});

test('same content → same ETag and 304 for If-None-Match; other coverage → another ETag', async (t) => {
  let clock = Date.parse('2026-11-24T12:00:00.100Z');
  let origins = ['https://pub.example'];
  const deps = depsOf(
    () => origins,
    () => new Date(clock),
  );
  const s = await serve(deps);
  try {
    const first = await fetch(s.url);
    t.is(first.status, 200);
    t.regex(first.headers.get('content-type') ?? '', /^application\/json/);
    const body = await first.json();
    t.true(Capabilities.is(body), 'the body still decodes with its codec');
    const etag = first.headers.get('etag')!;
    t.regex(etag, /^W\/"[0-9a-f]{32}"$/);

    clock += 5_000; // a later second: generated_at changes, the content does not
    const again = await fetch(s.url);
    t.is(again.headers.get('etag'), etag);
    t.not(
      ((await again.json()) as { generated_at: string }).generated_at,
      (body as { generated_at: string }).generated_at,
    );

    const cached = await fetch(s.url, { headers: { 'if-none-match': etag } });
    t.is(cached.status, 304);
    t.is(await cached.text(), '');

    origins = ['https://pub.example', 'https://news.example'];
    clock += 1_000;
    const changed = await fetch(s.url, { headers: { 'if-none-match': etag } });
    t.is(changed.status, 200);
    t.not(changed.headers.get('etag'), etag);
  } finally {
    await s.close();
  }
});

test('one body per second of requests; a later second moves only generated_at; coverage change shows', async (t) => {
  const clock = Date.parse('2026-11-24T12:00:00.100Z');
  let second = 0;
  let origins = ['https://pub.example'];
  let coverageReads = 0;
  const deps = depsOf(
    () => {
      coverageReads++;
      return origins;
    },
    () => new Date(clock + second * 1000),
  );
  const s = await serve(deps);
  try {
    const bodies = await Promise.all(Array.from({ length: 5 }, async () => (await fetch(s.url)).text()));
    t.is(new Set(bodies).size, 1, 'one body for the whole second');
    t.true(coverageReads <= 2, `coverage is not read per request (${coverageReads} reads)`);
    const first = JSON.parse(bodies[0]!) as Capabilities;
    t.true(Capabilities.is(first));
    t.is(first.generated_at, new Date(clock).toISOString());

    second = 1;
    const later = JSON.parse(await (await fetch(s.url)).text()) as Capabilities;
    t.deepEqual({ ...later, generated_at: first.generated_at }, first, 'only generated_at moved');
    t.is(later.generated_at, new Date(clock + 1000).toISOString());

    origins = ['https://pub.example', 'https://news.example'];
    second = 2;
    const changed = JSON.parse(await (await fetch(s.url)).text()) as Capabilities;
    t.deepEqual(changed.coverage.origins, origins, 'a coverage change shows in the next second');
  } finally {
    await s.close();
  }
});
