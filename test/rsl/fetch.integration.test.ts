import test from 'ava';
import { createHash } from 'node:crypto';
import { isRight } from 'fp-ts/lib/Either.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import { createSafeFetcher } from '../../src/rsl/safe-fetch.js';
import { ResourceReading } from '../../src/rsl/reading.js';
import { ResourceRefused } from '../../src/rsl/observe.js';
import { unavailability } from '../../src/rsl/unavailability.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import { fixture } from './helpers.js';
import { makeCerts, send, startOrigins, type TestCerts, type TestOrigins } from './tls-origins.js';

// Real HTTPS origins on 127.0.0.1, reached under their canonical names through FETCH_CONNECT_TO,
// trusted through an extra CA generated for this run. No mocks.

const HOSTS = [
  'publisher.test',
  'link.test',
  'html.test',
  'redirect.test',
  'forbidden.test',
  'norobots.test',
  'slow.test',
  'big.test',
  'bomb.test',
  'offsite.test',
  'elsewhere.test',
  'cache.test',
];
const ORIGINS = HOSTS.filter((h) => h !== 'elsewhere.test').map((h) => `https://${h}`);
const RSL = 'application/rsl+xml';
const HTML = 'text/html; charset=utf-8';
const NS = 'https://rslstandard.org/rsl';

let certs: TestCerts;
let origins: TestOrigins;
const pending: Array<() => void> = [];
/** slow.test's page: told when it is asked, and it keeps the read alive (a space now and then) until stopped. */
const slowPage = { asked: () => {}, dripping: true };

// Generous limits, caps only: the whole suite runs test files in parallel on one machine, and a TLS handshake
// on a busy loopback can take longer than a production read timeout (on a machine busy past its cores, longer
// than 30 s). The timeout test sets its own.
const UNHURRIED = { connectTimeoutMs: 60_000, readTimeoutMs: 60_000, totalTimeoutMs: 120_000 };

function engine(overrides: { ca?: boolean; loopback?: boolean; timeouts?: typeof UNHURRIED } = {}): RslEngine {
  return createRslEngine(
    {
      coveredOrigins: ORIGINS,
      fetchAllowLoopback: overrides.loopback ?? true,
      fetchExtraCaFile: overrides.ca === false ? undefined : certs.caFile,
      fetchConnectTo: Object.fromEntries(HOSTS.map((h) => [h, { address: '127.0.0.1', port: origins.port }])),
    },
    overrides.timeouts ?? UNHURRIED,
  );
}

const ctx = { userClass: 'commercial' as const, geo: null, freshnessSeconds: 300 };
const read = async (e: RslEngine, url: string, purposes: GatePurpose[] = ['ai-input', 'ai-train', 'search']) => {
  const r = await e.observe(url, purposes, ctx);
  const decoded = ResourceReading.decode(JSON.parse(JSON.stringify(r)));
  if (!isRight(decoded)) throw new Error('ResourceReading does not round-trip through JSON and its codec');
  return r;
};
const cls = (r: ResourceReading, purpose: string) => r.purposes.find((p) => p.purpose === purpose)!.classification;

test.before(async () => {
  certs = makeCerts(HOSTS);
  origins = await startOrigins(certs);
  const o = origins;
  const robots404 = (host: string) => o.route(host, '/robots.txt', send(404, 'text/html', '<h1>nope</h1>'));

  // publisher.test: robots `*` group License (plus another bot's line), fixture 10 as the document.
  o.route(
    'publisher.test',
    '/robots.txt',
    send(
      200,
      'text/plain',
      'User-agent: OtherBot\nLicense: https://publisher.test/other.xml\n\n' +
        'User-agent: *\nAllow: /\nLicense: https://publisher.test/license.xml\n',
    ),
  );
  o.route('publisher.test', '/license.xml', send(200, RSL, fixture('10-naulon-free-search-priced-ai-input-x402.xml')));
  // OtherBot's own license grants everything free: read too, it is not the most restrictive reading.
  o.route(
    'publisher.test',
    '/other.xml',
    send(
      200,
      RSL,
      `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
        '<payment type="free"/></license></content></rsl>',
    ),
  );
  o.route(
    'publisher.test',
    '/articles/rsl',
    send(200, HTML, '<html><head><title>a</title></head><body>text</body></html>'),
  );

  // link.test: no robots.txt (404), the resource's Link header points at a site-wide "no AI".
  robots404('link.test');
  o.route(
    'link.test',
    '/page',
    send(200, 'text/plain', 'hello', {
      link:
        `<https://link.test/rsl.xml>; rel="license"; type="${RSL}", ` +
        '<https://creativecommons.org/licenses/by/4.0/>; rel="license"',
    }),
  );
  o.route('link.test', '/rsl.xml', send(200, RSL, fixture('06-spec-sitewide-prohibit-ai-all.xml')));

  // html.test: HTML <link> to a page license plus an inline script scoped to the page.
  robots404('html.test');
  o.route(
    'html.test',
    '/story',
    send(
      200,
      HTML,
      `<!doctype html><html><head>
    <link rel="license" type="${RSL}" href="/page-license.xml">
    <script type="${RSL}"><rsl xmlns="${NS}"><content url="">` +
        `<license><prohibits type="usage">ai-train</prohibits></license></content></rsl></script>
    </head><body><p>story</p></body></html>`,
    ),
  );
  o.route(
    'html.test',
    '/page-license.xml',
    send(
      200,
      RSL,
      `<rsl xmlns="${NS}"><content url="/story"><license><permits type="usage">ai-input search</permits>` +
        '<payment type="free"/></license></content></rsl>',
    ),
  );

  // redirect.test: robots points at a license that redirects; the resource redirects too.
  o.route('redirect.test', '/robots.txt', send(200, 'text/plain', 'License: https://redirect.test/moved.xml\n'));
  o.route(
    'redirect.test',
    '/moved.xml',
    send(302, 'text/plain', '', { location: 'https://elsewhere.test/license.xml' }),
  );
  o.route('redirect.test', '/page', send(301, 'text/plain', '', { location: 'https://elsewhere.test/page' }));

  // forbidden.test: a permissive site license, but the inspected resource answers 403.
  o.route('forbidden.test', '/robots.txt', send(200, 'text/plain', 'License: https://forbidden.test/license.xml\n'));
  o.route(
    'forbidden.test',
    '/license.xml',
    send(
      200,
      RSL,
      `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
        '<payment type="free"/></license></content></rsl>',
    ),
  );
  o.route('forbidden.test', '/page', send(403, 'text/html', '<h1>forbidden</h1>'));

  // norobots.test: 404 robots.txt and a page without any association.
  robots404('norobots.test');
  o.route(
    'norobots.test',
    '/page',
    send(
      200,
      HTML,
      '<html><head><link rel="license" href="https://creativecommons.org/licenses/by/4.0/"></head></html>',
    ),
  );

  // slow.test: robots.txt answers, the resource never finishes: it drips while `slowPage.dripping`, then
  // goes silent.
  robots404('slow.test');
  o.route('slow.test', '/page', (_req, res) => {
    res.writeHead(200, { 'content-type': HTML });
    res.write('<html>');
    const drip = setInterval(() => slowPage.dripping && res.write(' '), 200);
    pending.push(() => {
      clearInterval(drip);
      res.destroy();
    });
    slowPage.asked();
  });

  // big.test: a license document far over the cap, streamed without a content-length.
  o.route('big.test', '/robots.txt', send(200, 'text/plain', 'License: https://big.test/big.xml\n'));
  o.route('big.test', '/big.xml', (_req, res) => {
    res.writeHead(200, { 'content-type': RSL });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 40 && res.write(chunk)) sent++;
      if (sent < 40) res.once('drain', pump);
      else res.end();
    };
    res.on('error', () => undefined);
    pump();
  });
  o.route('big.test', '/page', send(200, HTML, '<html></html>'));

  // bomb.test: billion laughs.
  const lol = [
    '<!ENTITY lol "lol">',
    ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
  ].join('');
  o.route('bomb.test', '/robots.txt', send(200, 'text/plain', 'License: https://bomb.test/bomb.xml\n'));
  o.route(
    'bomb.test',
    '/bomb.xml',
    send(
      200,
      RSL,
      `<?xml version="1.0"?><!DOCTYPE rsl [${lol}]><rsl xmlns="${NS}"><content url="/">` +
        '<license><permits type="usage">&lol9;</permits></license></content></rsl>',
    ),
  );
  o.route('bomb.test', '/page', send(200, HTML, '<html></html>'));

  // offsite.test: the License points at an origin outside coverage, which must never be fetched.
  o.route('offsite.test', '/robots.txt', send(200, 'text/plain', 'License: https://elsewhere.test/license.xml\n'));
  o.route('offsite.test', '/page', send(200, HTML, '<html></html>'));
  o.route(
    'elsewhere.test',
    '/license.xml',
    send(
      200,
      RSL,
      `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits></license></content></rsl>`,
    ),
  );

  // cache.test: cacheable robots.txt, uncacheable page.
  o.route(
    'cache.test',
    '/robots.txt',
    send(200, 'text/plain', 'License: https://cache.test/license.xml\n', { 'cache-control': 'max-age=600' }),
  );
  o.route('cache.test', '/license.xml', send(200, RSL, fixture('06-spec-sitewide-prohibit-ai-all.xml')));
  o.route('cache.test', '/page', send(200, HTML, '<html></html>', { 'cache-control': 'no-store' }));
});

test.after.always(async () => {
  pending.forEach((f) => f());
  await origins?.close();
});

test(
  'robots * group License → fixture 10: free search, ' +
    "priced ai-input, ai-train closed (OtherBot's freer license does not loosen it); every observation recorded",
  async (t) => {
    const e = engine();
    try {
      const r = await read(e, 'https://publisher.test/articles/rsl', [
        'search',
        'ai-input',
        'ai-train',
        'rag-ingestion',
      ]);
      t.is(cls(r, 'search'), 'PERMITTED_BY_OBSERVED_DECLARATION');
      t.is(cls(r, 'ai-input'), 'LICENSE_REQUIRED');
      t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
      t.deepEqual(
        r.purposes.find((p) => p.purpose === 'rag-ingestion')!.tokens.map((x) => x.token),
        ['ai-index', 'ai-input'],
      );
      t.true(r.declaration_found);
      t.true(r.discovery_complete);
      const doc = r.observations.find((o) => o.url === 'https://publisher.test/license.xml')!;
      t.is(doc.channel, 'robots');
      t.is(doc.status, 200);
      t.is(
        doc.sha256,
        createHash('sha256').update(fixture('10-naulon-free-search-priced-ai-input-x402.xml')).digest('hex'),
      );
      t.false(Number.isNaN(Date.parse(doc.fetched_at)));
      t.deepEqual(r.observations.map((o) => o.channel).sort(), ['resource', 'robots', 'robots', 'robots']);
      t.true(r.diagnostics.some((d) => d.includes('otherbot')));
      // Every crawler's reading is read (RSL §4.4.2–4.4.3); the most restrictive is the answer.
      t.true(origins.hits('publisher.test', '/other.xml') >= 1);
      const input = r.purposes.find((p) => p.purpose === 'ai-input')!.tokens[0]!;
      const reason = input.reasons[0]!;
      t.is(reason.content_url, '/articles/*');
      t.is(reason.document_sha256, doc.sha256);
      t.deepEqual(input.robots_groups, [
        { user_agents: ['*'], classification: 'LICENSE_REQUIRED' },
        { user_agents: ['otherbot'], classification: 'PERMITTED_BY_OBSERVED_DECLARATION' },
      ]);
      t.true(input.reasons.some((x) => x.rule === 'robots-crawler-reading' && x.detail.includes('read as *')));
    } finally {
      e.close();
    }
  },
);

test('Link header association (404 robots.txt is "no rules", not a failure)', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://link.test/page');
    t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(cls(r, 'search'), 'UNKNOWN');
    t.true(r.discovery_complete);
    t.is(r.observations.find((o) => o.channel === 'robots')!.status, 404);
    t.truthy(r.observations.find((o) => o.channel === 'link-header' && o.url === 'https://link.test/rsl.xml'));
  } finally {
    e.close();
  }
});

test('HTML <link> and inline <script>: the page-scoped inline prohibition and the linked grants combine', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://html.test/story');
    t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(cls(r, 'search'), 'PERMITTED_BY_OBSERVED_DECLARATION');
    t.deepEqual(r.documents.map((d) => d.channel).sort(), ['html-inline', 'html-link']);
    t.true(r.documents.every((d) => d.sha256 !== null && /^[0-9a-f]{64}$/.test(d.sha256)));
  } finally {
    e.close();
  }
});

test('redirects are never followed: resource 301 and license 302 end in UNKNOWN and are reported', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://redirect.test/page');
    for (const p of r.purposes) t.is(p.classification, 'UNKNOWN');
    t.false(r.discovery_complete);
    t.is(r.observations.find((o) => o.channel === 'resource')!.status, 301);
    t.is(r.documents[0]!.failure!.code, 'LICENSE_REDIRECT');
    t.is(origins.hits('elsewhere.test', '/page'), 0);
    t.is(origins.hits('elsewhere.test', '/license.xml'), 0);
  } finally {
    e.close();
  }
});

test('a 403 from the inspected resource is reported, never retried, and blocks any permission', async (t) => {
  const e = engine();
  try {
    const before = origins.hits('forbidden.test', '/page');
    const r = await read(e, 'https://forbidden.test/page', ['ai-input']);
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.is(r.observations.find((o) => o.channel === 'resource')!.status, 403);
    t.true(r.purposes[0]!.tokens[0]!.reasons.some((x) => x.detail.includes('RESOURCE_FORBIDDEN')));
    t.is(origins.hits('forbidden.test', '/page') - before, 1);
  } finally {
    e.close();
  }
});

test('no association anywhere: NO_MACHINE_READABLE_DECLARATION, declaration_found false', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://norobots.test/page');
    t.is(cls(r, 'ai-input'), 'NO_MACHINE_READABLE_DECLARATION');
    t.false(r.declaration_found);
    t.true(r.discovery_complete);
    t.deepEqual(
      unavailability(r),
      { reason: 'NO_VERIFIABLE_DECLARATION' },
      'nothing declared, and every channel answered',
    );
  } finally {
    e.close();
  }
});

// Serial, so before the file's concurrent tests: its 6 s read timeout is only ever the slow page's.
test.serial('a slow resource times out to UNKNOWN while other requests are served meanwhile', async (t) => {
  // Ordered by events, not by the clock: the fast reading starts once the slow page has been asked for,
  // and the slow page keeps its read alive until the fast reading is done; only then does it go silent
  // and meet the read timeout. The total timeout is only there to end the read if the drip were lost.
  const e = engine({ timeouts: { connectTimeoutMs: 60_000, readTimeoutMs: 6_000, totalTimeoutMs: 60_000 } });
  try {
    let slowDone = false;
    const asked = new Promise<void>((resolve) => {
      slowPage.asked = resolve;
    });
    const slow = read(e, 'https://slow.test/page').then((r) => {
      slowDone = true;
      return r;
    });
    await asked;
    const fast = await read(e, 'https://link.test/page');
    t.false(slowDone, 'the fast reading finished while the slow one was still pending');
    slowPage.dripping = false;
    t.is(cls(fast, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    const r = await slow;
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.false(r.declaration_found);
    t.false(r.discovery_complete);
    t.regex(r.observations.find((o) => o.channel === 'resource')!.error!.code, /^FETCH_(READ|CONNECT)_TIMEOUT$/);
    const u = unavailability(r);
    t.is(u?.reason, 'FETCH_FAILED', 'could not look is not "nothing declared"');
    t.deepEqual(u?.reason === 'FETCH_FAILED' && u.details.failures.map((f) => [f.channel, f.kind]), [
      ['resource', 'timeout'],
    ]);
  } finally {
    e.close();
  }
});

test('an oversized license document is aborted at the cap: UNKNOWN', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://big.test/page');
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.true(r.declaration_found);
    const obs = r.observations.find((o) => o.url === 'https://big.test/big.xml')!;
    t.is(obs.error!.code, 'FETCH_TOO_LARGE');
  } finally {
    e.close();
  }
});

test('a DOCTYPE entity bomb is refused before any expansion: UNKNOWN', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://bomb.test/page');
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.is(r.documents[0]!.failure!.code, 'DOCTYPE_REFUSED');
    t.false(r.documents[0]!.parsed);
  } finally {
    e.close();
  }
});

test('a license document outside coverage is recorded and never fetched', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://offsite.test/page');
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.true(r.declaration_found);
    t.is(r.documents[0]!.failure!.code, 'FETCH_NOT_COVERED');
    t.is(origins.hits('elsewhere.test', '/license.xml'), 0);
  } finally {
    e.close();
  }
});

test('cache honours freshness_seconds and Cache-Control; 0 always refetches', async (t) => {
  const e = engine();
  try {
    const robots = () => origins.hits('cache.test', '/robots.txt');
    const page = () => origins.hits('cache.test', '/page');
    const r0 = robots();
    const p0 = page();
    await e.observe('https://cache.test/page', ['ai-input'], { ...ctx, freshnessSeconds: 300 });
    const second = await e.observe('https://cache.test/page', ['ai-input'], { ...ctx, freshnessSeconds: 300 });
    t.is(robots() - r0, 1, 'robots.txt (max-age=600) reused within freshness');
    t.is(page() - p0, 2, 'no-store page refetched');
    t.true(second.observations.find((o) => o.channel === 'robots' && o.url.endsWith('/robots.txt'))!.cached);
    t.is(second.purposes[0]!.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
    await e.observe('https://cache.test/page', ['ai-input'], { ...ctx, freshnessSeconds: 0 });
    t.is(robots() - r0, 2, 'freshness 0 refetches');
  } finally {
    e.close();
  }
});

test('without the extra CA the test origins are not trusted: TLS failure, UNKNOWN', async (t) => {
  const e = engine({ ca: false });
  try {
    const r = await read(e, 'https://publisher.test/articles/rsl', ['ai-input']);
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.is(r.observations[0]!.error!.code, 'FETCH_TLS_FAILED');
    const u = unavailability(r);
    t.is(u?.reason, 'FETCH_FAILED');
    t.true(
      u?.reason === 'FETCH_FAILED' &&
        u.details.failures.every((f) => f.kind === 'tls' && f.code === 'FETCH_TLS_FAILED'),
    );
  } finally {
    e.close();
  }
});

test('loopback is refused when not allowed (connect-to is ignored and the resolved address is checked)', async (t) => {
  const fetcher = createSafeFetcher({
    coveredOrigins: ['https://localhost'],
    allowLoopback: false,
    connectTo: { localhost: { address: '127.0.0.1', port: origins.port } },
  });
  try {
    const r = await fetcher.get('https://localhost/robots.txt');
    t.false(r.ok);
    t.is(!r.ok && r.code, 'FETCH_ADDRESS_REFUSED');
  } finally {
    fetcher.close();
  }
  const e = engine({ loopback: false });
  try {
    const r = await read(e, 'https://publisher.test/articles/rsl', ['ai-input']);
    t.is(cls(r, 'ai-input'), 'UNKNOWN');
    t.regex(r.observations[0]!.error!.code, /^FETCH_(DNS_FAILED|ADDRESS_REFUSED)$/);
    const u = unavailability(r);
    t.is(u?.reason, 'FETCH_FAILED');
    t.true(
      u?.reason === 'FETCH_FAILED' &&
        u.details.failures.length === 2 &&
        u.details.failures.every((f) => f.kind === 'address-policy' || f.kind === 'dns'),
    );
  } finally {
    e.close();
  }
});

test('the fetcher refuses non-https and uncovered URLs without touching the network', async (t) => {
  const fetcher = createSafeFetcher({ coveredOrigins: ORIGINS, allowLoopback: true });
  try {
    const a = await fetcher.get('http://publisher.test/robots.txt');
    const b = await fetcher.get('https://elsewhere.test/license.xml');
    const c = await fetcher.get('https://publisher.test:8443/x');
    t.deepEqual(
      [a, b, c].map((r) => !r.ok && r.code),
      ['FETCH_NOT_HTTPS', 'FETCH_NOT_COVERED', 'FETCH_BAD_URL'],
    );
  } finally {
    fetcher.close();
  }
});

test('observeAndEvaluate refuses a resource outside the §2.2 rule with its code', async (t) => {
  const e = engine();
  try {
    const err = await t.throwsAsync(e.observe('https://elsewhere.test/page', ['ai-input'], ctx));
    t.true(err instanceof ResourceRefused);
    t.is((err as ResourceRefused).code, 'RESOURCE_NOT_COVERED');
  } finally {
    e.close();
  }
});
