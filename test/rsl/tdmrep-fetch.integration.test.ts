import test from 'ava';
import { tmpdir } from 'node:os';
import { rslDocument, startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import { loadConfig } from '../../src/config/config.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';

// The origin's /.well-known/tdmrep.json (docs/wire.md §15) is fetched beside robots.txt and the page, with the
// same safe fetch and time limits: one that never finishes answering is a failure the signal readers
// see, never an error, and the RSL reading is what it would be without it. A real HTTPS publisher on
// loopback; the read timeout is short here so the stall costs seconds, not the production ten.

const HOST = 'stalled-tdmrep.example';
let origins: TestOrigins;
let engine: RslEngine;

test.before(async () => {
  origins = await startTestOrigins({
    [HOST]: {
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${HOST}/rsl.xml\n` },
      '/rsl.xml': { type: 'application/rsl+xml', body: rslDocument({ url: '/', permits: ['ai-train'] }) },
      '/page': { body: '<html><head><title>p</title></head><body>p</body></html>' },
      '/.well-known/tdmrep.json': { type: 'application/json', body: '', stall: true },
    },
  });
  engine = createRslEngine(loadConfig({ ...origins.env, DATA_DIR: tmpdir() }), {
    connectTimeoutMs: 15_000,
    readTimeoutMs: 3_000,
    totalTimeoutMs: 20_000,
  });
});
test.after.always(async () => {
  engine?.close();
  await origins?.close();
});

test('a tdmrep.json that stalls times out into a diagnostic; the RSL reading is complete and unchanged', async (t) => {
  const r = await engine.observe(`https://${HOST}/page`, ['ai-train'], {
    userClass: 'commercial',
    geo: null,
    freshnessSeconds: 300,
  });
  t.is(r.purposes[0]!.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.true(r.discovery_complete);
  t.true(r.diagnostics.some((d) => d.includes('/.well-known/tdmrep.json') && d.includes('FETCH_READ_TIMEOUT')));
  t.false(
    r.observations.some((o) => o.url.endsWith('/.well-known/tdmrep.json')),
    'tdmrep.json is no RSL channel',
  );
  t.true(Array.isArray(r.signals));
});
