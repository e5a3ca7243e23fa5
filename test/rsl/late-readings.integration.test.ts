import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import { ResourceReading } from '../../src/rsl/reading.js';
import { summarizeSignals } from '../../src/signals/summarize.js';
import { makeCerts, send, startOrigins, type TestCerts, type TestOrigins } from './tls-origins.js';

// A page read by every conforming reader, end to end through real HTTPS origins on 127.0.0.1:
// - a `<meta charset>` past the prescan's first 1024 bytes: the prescan decides windows-1252, the parser meets
//   the meta while that is only tentative and "changes the encoding" (HTML §13.2.3.5); the page is read in both
//   and what either finds counts (ENCODING_CHANGED_BY_META);
// - `<noscript>`: text to a browser, elements to a crawler without scripting; both readings count
//   (NOSCRIPT_READ_WITHOUT_SCRIPTING).
// Each page is built so that the one reading the service used to make answers a grant; none may now.

const HOSTS = ['late.test', 'noscript.test'];
const RSL = 'application/rsl+xml';
const NS = 'https://rslstandard.org/rsl';
const grantAll = () =>
  `<rsl xmlns="${NS}"><content url=""><license><permits type="usage">all</permits>` +
  '<payment type="free"/></license></content></rsl>';
const prohibitAi = () =>
  `<rsl xmlns="${NS}"><content url=""><license><prohibits type="usage">ai-all</prohibits></license></content></rsl>`;
const siteGrant =
  `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
  '<payment type="free"/></license></content></rsl>';

let certs: TestCerts;
let origins: TestOrigins;
let engine: RslEngine;

const read = async (url: string) => {
  const r = await engine.observe(url, ['ai-input', 'ai-train', 'search'], {
    userClass: 'commercial',
    geo: null,
    freshnessSeconds: 0,
  });
  if (!isRight(ResourceReading.decode(JSON.parse(JSON.stringify(r))))) throw new Error('reading does not round-trip');
  return r;
};
const cls = (r: ResourceReading, purpose: string) => r.purposes.find((p) => p.purpose === purpose)!.classification;
const resourceObs = (r: ResourceReading) => r.observations.find((o) => o.channel === 'resource')!;
const NOT_PERMITTED = ['PROHIBITED_BY_OBSERVED_DECLARATION', 'CONFLICT'];

/** The bytes of a page whose license link names /licence-é.xml in UTF-8, after `lead`. */
const eAcutePage = (lead: string, tail = '') =>
  Buffer.concat([
    Buffer.from(`<html><head>${lead}<link rel="license" type="${RSL}" href="/licence-`),
    Buffer.from('é', 'utf8'),
    Buffer.from(`.xml">${tail}</head><body>x</body></html>`),
  ]);
const PAST_PRESCAN = `<!--${'x'.repeat(1100)}-->`;

test.before(async () => {
  certs = makeCerts(HOSTS);
  origins = await startOrigins(certs);
  const o = origins;
  // late.test: no robots.txt. Read as UTF-8, é is %C3%A9 (the prohibition); as windows-1252, Ã© (a decoy grant).
  o.route('late.test', '/robots.txt', send(404, 'text/plain', 'none'));
  o.route('late.test', '/licence-%C3%A9.xml', send(200, RSL, prohibitAi()));
  o.route('late.test', '/licence-%C3%83%C2%A9.xml', send(200, RSL, grantAll()));
  o.route('late.test', '/late-charset', send(200, 'text/html', eAcutePage(`${PAST_PRESCAN}<meta charset="utf-8">`)));
  o.route(
    'late.test',
    '/late-http-equiv',
    send(
      200,
      'text/html',
      eAcutePage(`${PAST_PRESCAN}<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">`),
    ),
  );
  // The meta after the link, in the body: the parser still meets it while the encoding is tentative.
  o.route(
    'late.test',
    '/late-in-body',
    send(200, 'text/html', eAcutePage(PAST_PRESCAN, '</head><body><meta charset="utf-8"><p>x</p>')),
  );
  // UTF-16 named by a meta is read as UTF-8 ("change the encoding", step 2).
  o.route('late.test', '/late-utf16', send(200, 'text/html', eAcutePage(`${PAST_PRESCAN}<meta charset="utf-16le">`)));
  // The HTTP charset is certain: a late meta changes nothing, one reading only.
  o.route(
    'late.test',
    '/http-certain',
    send(200, 'text/html; charset=windows-1252', eAcutePage(`${PAST_PRESCAN}<meta charset="utf-8">`)),
  );
  // The prescan found windows-1252 in a meta; the parser's first meta is that one: confidence certain.
  o.route(
    'late.test',
    '/early-meta-decides',
    send(200, 'text/html', eAcutePage(`<meta charset="windows-1252">${PAST_PRESCAN}<meta charset="utf-8">`)),
  );

  // noscript.test: robots.txt grants everything site-wide; the page's own prohibition is inside <noscript>.
  o.route('noscript.test', '/robots.txt', send(200, 'text/plain', 'License: https://noscript.test/site.xml\n'));
  o.route('noscript.test', '/site.xml', send(200, RSL, siteGrant));
  o.route('noscript.test', '/prohibit.xml', send(200, RSL, prohibitAi()));
  o.route('noscript.test', '/licences/page.xml', send(200, RSL, prohibitAi()));
  o.route('noscript.test', '/page.xml', send(200, RSL, grantAll()));
  const html = (body: string) => send(200, 'text/html; charset=utf-8', body);
  o.route(
    'noscript.test',
    '/link-in-head',
    html(`<html><head><noscript><link rel="license" type="${RSL}" href="/prohibit.xml"></noscript></head></html>`),
  );
  o.route(
    'noscript.test',
    '/inline-in-body',
    html(`<html><body><noscript><script type="${RSL}">${prohibitAi()}</script></noscript><p>x</p></body></html>`),
  );
  // Only the browser sees this one: without scripting the comment runs past </noscript> and hides the link.
  o.route(
    'noscript.test',
    '/browser-only',
    html(
      `<html><head><noscript><!--</noscript><link rel="license" type="${RSL}" href="/prohibit.xml">--></head></html>`,
    ),
  );
  // A <base href> only the crawler sees: the relative link resolves against each reader's base.
  o.route(
    'noscript.test',
    '/base',
    html(
      '<html><head><noscript><base href="/licences/"></noscript>' +
        `<link rel="license" type="${RSL}" href="page.xml"></head></html>`,
    ),
  );
  o.route(
    'noscript.test',
    '/tdm-meta',
    html('<html><head><noscript><meta name="tdm-reservation" content="1"></noscript></head><body>x</body></html>'),
  );
  const hosts = Object.fromEntries(HOSTS.map((h) => [h, { address: '127.0.0.1', port: origins.port }]));
  engine = createRslEngine(
    {
      coveredOrigins: HOSTS.map((h) => `https://${h}`),
      fetchAllowLoopback: true,
      fetchExtraCaFile: certs.caFile,
      fetchConnectTo: hosts,
    },
    { connectTimeoutMs: 15_000, readTimeoutMs: 15_000, totalTimeoutMs: 30_000 },
  );
});
test.after.always(async () => {
  engine?.close();
  await origins?.close();
});

for (const [path, what] of [
  ['/late-charset', '<meta charset> past the first 1024 bytes'],
  ['/late-http-equiv', '<meta http-equiv content-type> past the first 1024 bytes'],
  ['/late-in-body', '<meta charset> in the body, after the link'],
  ['/late-utf16', '<meta charset=utf-16le> past the first 1024 bytes (read as UTF-8)'],
] as const) {
  test(`class 4: a ${what} changes the encoding: the page is read both ways, never a grant`, async (t) => {
    const r = await read(`https://late.test${path}`);
    t.true(NOT_PERMITTED.includes(cls(r, 'ai-train')), cls(r, 'ai-train'));
    t.true(NOT_PERMITTED.includes(cls(r, 'ai-input')), cls(r, 'ai-input'));
    t.deepEqual(r.documents.map((d) => d.url).sort(), [
      'https://late.test/licence-%C3%83%C2%A9.xml',
      'https://late.test/licence-%C3%A9.xml',
    ]);
    t.deepEqual(resourceObs(r).encoding, { name: 'windows-1252', source: 'default' }, 'the prescan decided first');
    t.true(
      resourceObs(r).notes.some((n) =>
        n.startsWith('ENCODING_CHANGED_BY_META: the parser meets a <meta> naming UTF-8'),
      ),
    );
    t.true(r.diagnostics.some((d) => d.includes('ENCODING_CHANGED_BY_META')));
  });
}

test('class 4: a certain HTTP charset, and a prescanned meta the parser meets first: no second reading', async (t) => {
  for (const path of ['/http-certain', '/early-meta-decides']) {
    const r = await read(`https://late.test${path}`);
    t.deepEqual(
      r.documents.map((d) => d.url),
      ['https://late.test/licence-%C3%83%C2%A9.xml'],
      path,
    );
    t.false(
      r.diagnostics.some((d) => d.includes('ENCODING_CHANGED_BY_META')),
      path,
    );
  }
});

test('class 5: a license link inside <noscript> in <head> counts (a crawler reads it as an element)', async (t) => {
  const r = await read('https://noscript.test/link-in-head');
  t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
  t.true(r.documents.some((d) => d.url === 'https://noscript.test/prohibit.xml'));
  t.true(r.diagnostics.some((d) => d.includes('NOSCRIPT_READ_WITHOUT_SCRIPTING')));
});

test('class 5: an inline RSL block inside <noscript> in <body> counts', async (t) => {
  const r = await read('https://noscript.test/inline-in-body');
  t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
  t.deepEqual(
    r.documents.filter((d) => d.channel === 'html-inline').map((d) => d.url),
    ['https://noscript.test/inline-in-body#rsl-script-1'],
  );
});

test('class 5: what only the browser sees still counts', async (t) => {
  const r = await read('https://noscript.test/browser-only');
  t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
});

test('class 5: a <base href> inside <noscript>: each reader resolves the link against its own base', async (t) => {
  const r = await read('https://noscript.test/base');
  t.deepEqual(r.documents.map((d) => d.url).sort(), [
    'https://noscript.test/licences/page.xml',
    'https://noscript.test/page.xml',
    'https://noscript.test/site.xml',
  ]);
  t.true(NOT_PERMITTED.includes(cls(r, 'ai-train')), cls(r, 'ai-train'));
});

test('class 5: a tdm-reservation meta inside <noscript> reserves (TDMRep signal)', async (t) => {
  const r = await read('https://noscript.test/tdm-meta');
  t.is(cls(r, 'ai-train'), 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(summarizeSignals(r.signals ?? [], ['ai-train'], cls(r, 'ai-train')), 'RESTRICTED_BY_OTHER_SIGNAL');
});
