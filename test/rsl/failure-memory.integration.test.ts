import test from 'ava';
import { type OriginSite, rslDocument } from '../../src/devnet/https-origin.js';
import { FAILURE_MEMORY_SECONDS, FetchCache } from '../../src/rsl/fetch-cache.js';
import { observeAndEvaluate } from '../../src/rsl/observe.js';
import { useSiteFetcher } from './site-fetcher.js';

// A publisher's failures are remembered briefly (docs/decisions.md "Signal readers under one work budget"):
// a tdmrep.json that never finishes answering is asked for once, not on every quote on the origin, until
// FAILURE_MEMORY_SECONDS have passed or the caller asks for freshness 0. Counted in requests the publisher
// saw, on a fake clock; a real HTTPS publisher on loopback with a short read timeout.

const HOST = 'drip.example';
const TDMREP = '/.well-known/tdmrep.json';
const site: OriginSite = {
  [HOST]: {
    '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${HOST}/rsl.xml\n` },
    '/rsl.xml': { type: 'application/rsl+xml', body: rslDocument({ url: '/', permits: ['ai-train'] }) },
    '/a': { body: '<html><head><title>a</title></head><body>a</body></html>' },
    '/b': { body: '<html><head><title>b</title></head><body>b</body></html>' },
    '/c': { body: '<html><head><title>c</title></head><body>c</body></html>' },
    [TDMREP]: { type: 'application/json', body: '', stall: true },
  },
};
const w = useSiteFetcher(site, { connectTimeoutMs: 15_000, readTimeoutMs: 1_000, totalTimeoutMs: 20_000 });

test('a stalling tdmrep.json is asked for once per FAILURE_MEMORY_SECONDS, not once per quote', async (t) => {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const cache = new FetchCache(w.fetcher, () => clock);
  const deps = { cache, coveredOrigins: [`https://${HOST}`] };
  const quote = (path: string, freshnessSeconds = 300) =>
    observeAndEvaluate(
      `https://${HOST}${path}`,
      ['ai-train'],
      { userClass: 'commercial', geo: null, freshnessSeconds },
      deps,
    );
  const asked = () => w.origins.requests.filter((r) => r.path === TDMREP).length;

  const first = await quote('/a');
  t.is(asked(), 1);
  t.true(first.diagnostics.some((d) => d.includes(TDMREP) && d.includes('FETCH_READ_TIMEOUT')));

  clock += (FAILURE_MEMORY_SECONDS - 1) * 1000;
  const second = await quote('/b');
  t.is(asked(), 1, 'the failure was remembered: the second quote did not wait on the publisher again');
  t.true(second.diagnostics.some((d) => d.includes('FETCH_READ_TIMEOUT') && d.includes('remembered')));
  // Remembered or not, a failure is never a permission, and the RSL reading is the same.
  t.is(second.purposes[0]!.classification, first.purposes[0]!.classification);
  t.deepEqual(
    second.signals!.map((o) => o.readings.map((r) => r.verdict)),
    first.signals!.map((o) => o.readings.map((r) => r.verdict)),
  );

  // freshness_seconds 0 always asks again.
  await quote('/c', 0);
  t.is(asked(), 2);

  // Past the memory, the publisher is asked again; once it answers, nothing of the failure is left.
  clock += (FAILURE_MEMORY_SECONDS + 1) * 1000;
  site[HOST]![TDMREP] = { type: 'application/json', body: '[{"location":"/","tdm-reservation":1}]' };
  const recovered = await quote('/a');
  t.is(asked(), 3);
  t.false(recovered.diagnostics.some((d) => d.includes(TDMREP)));
  t.true(recovered.signals!.some((o) => o.standard === 'tdmrep' && o.readings.some((r) => r.verdict === 'reserved')));
});
