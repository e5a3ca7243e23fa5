import test from 'ava';
import { takeComparisons } from '../../src/matching/wildcard-match.js';
import { useWorld } from '../support/world.js';

// A covered publisher serving `<content url="/*a*a*a*ab">` and a free quote for `/` + 650 × `a`
// held the event loop for 5 s (a backtracking RegExp, ~n^4). Here the real service, its real fetcher
// and a real HTTPS publisher on loopback answer 8 such quotes and 8 such inspections at once while
// /healthz is probed. The outcome is asserted exactly, and a stall by the work it stands for: the
// matching done on the event loop, counted (the timing, p99 in milliseconds, is `npm run bench:hostile`'s).

const HOSTILE = '/*a*a*a*ab';
const NS = 'https://rslstandard.org/rsl';
const hostileXml =
  `<rsl xmlns="${NS}">` +
  `<content url="/"><license><permits type="usage">all</permits><payment type="free"/></license></content>` +
  `<content url="${HOSTILE}"><license><prohibits type="usage">all</prohibits></license></content>` +
  '</rsl>';

const w = useWorld({
  site: {
    'pub.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nLicense: https://pub.example/l.xml\n' },
      '/l.xml': { type: 'application/rsl+xml', body: hostileXml },
    },
  },
  logLevel: 'warn',
  tmpPrefix: 'rights-hostile-',
});

const quote = (path: string) =>
  fetch(`${w.url}/v1/rights/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      resource: `https://pub.example${path}`,
      purpose: 'ai-train',
      tier: 'fresh',
      max_total_micro: '200000',
    }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

const inspect = (path: string) =>
  fetch(`${w.url}/v1/rights/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ resource: `https://pub.example${path}`, purpose: 'ai-train', xml: hostileXml }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

test('the hostile pattern matched exactly: the site grant without a final b, the prohibition with one', async (t) => {
  const miss = await quote('/' + 'a'.repeat(650));
  t.is(miss.status, 200, JSON.stringify(miss.body));
  t.is(miss.body.decision_preview.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  const hit = await quote('/' + 'a'.repeat(650) + 'b');
  t.is(hit.status, 200, JSON.stringify(hit.body));
  t.is(hit.body.decision_preview.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  const inspected = await inspect('/' + 'a'.repeat(2000) + 'b');
  t.is(inspected.status, 200, JSON.stringify(inspected.body));
  t.is(inspected.body.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION', JSON.stringify(inspected.body));
});

// Serial: the matching counted below is this test's alone (the service runs in this process).
test.serial(
  '8 hostile quotes and 8 hostile inspections at once: every answer correct, /healthz never stalls',
  async (t) => {
    const probes: number[] = [];
    let running = true;
    const probe = (async () => {
      while (running) {
        const res = await fetch(`${w.url}/healthz`);
        await res.arrayBuffer();
        probes.push(res.status);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const paths = Array.from({ length: 8 }, (_, i) => '/' + 'a'.repeat(2000 - i));
    takeComparisons();
    const answers = await Promise.all([...paths.map(quote), ...paths.map(inspect)]);
    const compared = takeComparisons();
    running = false;
    await probe;
    for (const a of answers) t.is(a.status, 200, JSON.stringify(a.body).slice(0, 300));
    for (const a of answers.slice(0, 8))
      t.is(a.body.decision_preview.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
    // The inspect pool's deadline counts its workers' CPU time, so a busy machine does not turn these
    // small documents into PARSE_TIME_LIMIT (inspect-pool.ts).
    for (const a of answers.slice(8))
      t.is(a.body.classification, 'PERMITTED_BY_OBSERVED_DECLARATION', JSON.stringify(a.body));
    t.true(probes.length > 0);
    t.true(probes.every((status) => status === 200));
    // Before the linear matcher one such quote held /healthz for ~5 s of backtracking. The inspections
    // match in worker threads; the quotes match on the event loop, with the linear matcher (so the count is
    // not zero), in octet comparisons linear in the path: per quote, what wildcard-match.test.ts allows two
    // matches of this pattern against a path of up to 2,047 octets, whatever the machine's speed.
    t.true(compared > 0, 'the quotes were matched by the linear matcher');
    const linear = 4 * 2 * (2048 + 10);
    t.true(compared <= paths.length * linear, `${compared} octet comparisons for ${paths.length} quotes`);
  },
);
