import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { loadConfig, ConfigError } from '../../src/config/config.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import { ResourceReading } from '../../src/rsl/reading.js';
import { ROBOTS_PARSE_LIMIT_BYTES, robotsReadBytes } from '../../src/rsl/robots.js';
import { makeCerts, send, startOrigins, type TestCerts, type TestOrigins } from './tls-origins.js';

// The page read as a browser reads it (docs/decisions.md, "Reading pages as browsers do"), through real HTTPS origins
// on 127.0.0.1: markup a browser treats as text is never an element, the page is decoded as the HTML standard sniffs
// it, relative targets resolve against <base href>, an inline block naming a canonical work governs its page, and
// robots.txt is parsed to its first 500 KiB. Every case is built so that the old misreading would have answered a
// grant; none may.

const HOSTS = ['decoy.test', 'enc.test', 'base.test', 'copy.test', 'original.test', 'big.test', 'open.test'];
const ORIGINS = HOSTS.map((h) => `https://${h}`);
const RSL = 'application/rsl+xml';
const NS = 'https://rslstandard.org/rsl';

const grantAll = (url = '') =>
  `<rsl xmlns="${NS}"><content url="${url}"><license><permits type="usage">all</permits>` +
  '<payment type="free"/></license></content></rsl>';
const prohibitAi = (url = '') =>
  `<rsl xmlns="${NS}"><content url="${url}"><license><prohibits type="usage">ai-all</prohibits>` +
  '</license></content></rsl>';
const siteGrant =
  `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
  '<payment type="free"/></license></content></rsl>';

let certs: TestCerts;
let origins: TestOrigins;
// Caps only (no test here is about a timeout): on a machine busy past its cores, this file's concurrent tests
// share one process for their TLS clients and servers, and a 30 s read of a loopback origin was passed.
const UNHURRIED = { connectTimeoutMs: 60_000, readTimeoutMs: 60_000, totalTimeoutMs: 120_000 };

function engine(robotsParseLimitBytes?: number): RslEngine {
  return createRslEngine(
    {
      coveredOrigins: ORIGINS,
      fetchAllowLoopback: true,
      fetchExtraCaFile: certs.caFile,
      fetchConnectTo: Object.fromEntries(HOSTS.map((h) => [h, { address: '127.0.0.1', port: origins.port }])),
      ...(robotsParseLimitBytes ? { robotsParseLimitBytes } : {}),
    },
    UNHURRIED,
  );
}
/** What could not be read, for an assertion's message: an UNKNOWN is explained by it. */
const unread = (r: ResourceReading) =>
  JSON.stringify([
    ...r.observations.filter((o) => o.error).map((o) => [o.channel, o.url, o.error]),
    ...r.documents.filter((d) => d.failure).map((d) => [d.channel, d.url, d.failure]),
  ]);
const read = async (e: RslEngine, url: string) => {
  // freshness 0: every test reads what the origin serves now.
  const r = await e.observe(url, ['ai-input', 'ai-train', 'search'], {
    userClass: 'commercial',
    geo: null,
    freshnessSeconds: 0,
  });
  const decoded = ResourceReading.decode(JSON.parse(JSON.stringify(r)));
  if (!isRight(decoded)) throw new Error('ResourceReading does not round-trip through its codec');
  return r;
};
const cls = (r: ResourceReading, purpose: string) => r.purposes.find((p) => p.purpose === purpose)!.classification;
const resourceObs = (r: ResourceReading) => r.observations.find((o) => o.channel === 'resource')!;

/** The decoys: places a browser reads as text or keeps out of the document. (`<noscript>` is none: a crawler
 *  without scripting reads its content as elements, late-readings.integration.test.ts.) */
const DECOYS: Array<[string, (inner: string) => string]> = [
  ['comment', (x) => `<!-- ${x} -->`],
  ['textarea (RCDATA)', (x) => `<textarea>${x}</textarea>`],
  ['title (RCDATA)', (x) => `<title>${x}</title>`],
  ['style (RAWTEXT)', (x) => `<style>${x}</style>`],
  ['xmp (RAWTEXT)', (x) => `<xmp>${x}</xmp>`],
  ['iframe (RAWTEXT)', (x) => `<iframe>${x}</iframe>`],
  ['noembed (RAWTEXT)', (x) => `<noembed>${x}</noembed>`],
  ['template (inert content)', (x) => `<template>${x}</template>`],
  ['CDATA in SVG', (x) => `<svg><![CDATA[${x}]]></svg>`],
  ['SVG elements of the same name', (x) => `<svg>${x}</svg>`],
  ['an attribute value', (x) => `<div title='${x.replaceAll("'", '"')}'></div>`],
  ['plaintext (the rest of the page is text)', (x) => `<plaintext>${x}`],
];
const decoySlug = (i: number) => `/decoy-${i}`;

test.before(async () => {
  certs = makeCerts(HOSTS);
  origins = await startOrigins(certs);
  const o = origins;
  const html = (body: string, headers: Record<string, string> = {}) =>
    send(200, 'text/html; charset=utf-8', body, headers);

  // decoy.test: no robots.txt; each decoy wraps an inline grant and a link to a grant.
  o.route('decoy.test', '/robots.txt', send(404, 'text/plain', 'none'));
  o.route('decoy.test', '/grant.xml', send(200, RSL, grantAll()));
  o.route('decoy.test', '/prohibit.xml', send(200, RSL, prohibitAi()));
  const bait = `<link rel="license" type="${RSL}" href="/grant.xml">` + `<script type="${RSL}">${grantAll()}</script>`;
  DECOYS.forEach(([, wrap], i) => {
    o.route('decoy.test', decoySlug(i), html(`<!doctype html><html><head>${wrap(bait)}</head><body>x</body></html>`));
  });
  // Every decoy on one page, then a real inline prohibition: the tokenizer comes back to markup after each.
  o.route(
    'decoy.test',
    '/all-then-real',
    html(
      `<!doctype html><html><head>${DECOYS.filter(([name]) => !name.startsWith('plaintext'))
        .map(([, wrap]) => wrap(bait))
        .join('\n')}</head><body>` + `<p>text</p><script type="${RSL}">${prohibitAi()}</script></body></html>`,
    ),
  );
  // A real link whose href carries entities (the tokenizer's attribute rules decode them).
  o.route(
    'decoy.test',
    '/entity-href',
    html(`<html><head><link rel=license type=${RSL} href="/prohibit&#x2e;xml"></head></html>`),
  );

  // enc.test: a site-wide grant in robots.txt; each page's own prohibition must be read in its encoding.
  o.route('enc.test', '/robots.txt', send(200, 'text/plain', 'License: https://enc.test/site.xml\n'));
  o.route('enc.test', '/site.xml', send(200, RSL, siteGrant));
  o.route('enc.test', '/licence-%C3%A9.xml', send(200, RSL, prohibitAi()));
  o.route('enc.test', '/licence-%C3%83%C2%A9.xml', send(200, RSL, grantAll()));
  const inlineProhibition = `<html><head><script type="${RSL}">${prohibitAi()}</script></head><body>x</body></html>`;
  const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  const utf16be = (s: string) => {
    const le = Buffer.from(s, 'utf16le');
    for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
  };
  o.route('enc.test', '/utf16le-bom', send(200, 'text/html', utf16le(inlineProhibition)));
  o.route('enc.test', '/utf16be-bom-over-http', send(200, 'text/html; charset=utf-8', utf16be(inlineProhibition)));
  o.route(
    'enc.test',
    '/utf16-http',
    send(200, 'text/html; charset=UTF-16LE', Buffer.from(inlineProhibition, 'utf16le')),
  );
  const eAcuteLink = (bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(`<html><head><link rel="license" type="${RSL}" href="/licence-`),
      bytes,
      Buffer.from('.xml"></head><body>x</body></html>'),
    ]);
  o.route(
    'enc.test',
    '/meta-utf8',
    send(200, 'text/html', Buffer.concat([Buffer.from('<meta charset="utf-8">'), eAcuteLink(Buffer.from('é'))])),
  );
  o.route(
    'enc.test',
    '/meta-http-equiv',
    send(
      200,
      'text/html',
      Buffer.concat([
        Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'),
        eAcuteLink(Buffer.from('é')),
      ]),
    ),
  );
  o.route('enc.test', '/default-1252', send(200, 'text/html', eAcuteLink(Buffer.from([0xe9]))));
  o.route(
    'enc.test',
    '/meta-too-late',
    send(
      200,
      'text/html',
      Buffer.concat([
        Buffer.from(`<!--${'x'.repeat(1100)}-->`),
        Buffer.from('<meta charset="utf-8">'),
        eAcuteLink(Buffer.from('é')),
      ]),
    ),
  );
  o.route('enc.test', '/undecodable', send(200, 'text/html; charset=iso-2022-kr', inlineProhibition));

  // base.test: a site-wide grant; the page's relative link resolves against its <base href>.
  o.route('base.test', '/robots.txt', send(200, 'text/plain', 'License: https://base.test/site.xml\n'));
  o.route('base.test', '/site.xml', send(200, RSL, siteGrant));
  o.route('base.test', '/licences/page.xml', send(200, RSL, prohibitAi()));
  o.route('base.test', '/articles/page.xml', send(200, RSL, grantAll()));
  o.route(
    'base.test',
    '/articles/story',
    html(
      '<html><head><template><base href="/nowhere/"></template><base href="/licences/">' +
        `<base href="/articles/"><link rel="license" type="${RSL}" href="page.xml"></head><body>x</body></html>`,
    ),
  );
  // The base URL applies to the whole document, links before the <base> element too.
  o.route(
    'base.test',
    '/articles/late-base',
    html(`<html><head><link rel="license" type="${RSL}" href="page.xml"><base href="/licences/"></head></html>`),
  );

  // copy.test syndicates original.test's story; its robots.txt grants everything.
  o.route('copy.test', '/robots.txt', send(200, 'text/plain', 'License: https://copy.test/site.xml\n'));
  o.route('copy.test', '/site.xml', send(200, RSL, siteGrant));
  o.route(
    'copy.test',
    '/syndicated/story',
    html(`<html><head><script type="${RSL}">${prohibitAi('https://original.test/story')}</script></head></html>`),
  );
  o.route(
    'copy.test',
    '/syndicated/granted',
    html(`<html><head><script type="${RSL}">${grantAll('https://original.test/story')}</script></head></html>`),
  );
  o.route(
    'copy.test',
    '/own/story',
    html(`<html><head><script type="${RSL}">${grantAll('https://copy.test/own/story')}</script></head></html>`),
  );
  // open.test: no robots.txt, an inline grant naming a canonical work elsewhere and nothing else.
  o.route('open.test', '/robots.txt', send(404, 'text/plain', 'none'));
  o.route(
    'open.test',
    '/copy',
    html(`<html><head><script type="${RSL}">${grantAll('https://original.test/story')}</script></head></html>`),
  );

  // big.test: a 700 KiB robots.txt; one License line inside the first 500 KiB, one crossing the 500 KiB
  // mark (parsed: the limit is a floor), one cut where reading stops, one beyond.
  o.route('big.test', '/inside.xml', send(200, RSL, prohibitAi('/')));
  o.route('big.test', '/crossing.xml', send(200, RSL, prohibitAi('/')));
  o.route('big.test', '/cut', send(200, RSL, grantAll('/')));
  o.route('big.test', '/cut-short-of-its-name.xml', send(200, RSL, grantAll('/')));
  o.route('big.test', '/beyond.xml', send(200, RSL, grantAll('/')));
  o.route('big.test', '/page', html('<html><body>x</body></html>'));
  const pad = (text: string, upTo: number) => {
    let out = text;
    while (Buffer.byteLength(out) < upTo) out += '# padding padding padding\n';
    return out;
  };
  const head = 'User-agent: *\nAllow: /\nLicense: https://big.test/inside.xml\n';
  const crossing = 'License: https://big.test/crossing.xml\n';
  const cutLine = 'License: https://big.test/cut-short-of-its-name.xml\n';
  const upToCut = pad(
    pad(head, ROBOTS_PARSE_LIMIT_BYTES - 20) + crossing,
    robotsReadBytes(ROBOTS_PARSE_LIMIT_BYTES) - 22,
  );
  const robots = upToCut + cutLine + `${'# more\n'.repeat(20_000)}License: https://big.test/beyond.xml\n`;
  o.route('big.test', '/robots.txt', send(200, 'text/plain', robots));
});

test.after.always(async () => {
  await origins?.close();
});

for (const [i, [name]] of DECOYS.entries()) {
  test(`class 1: an inline grant and a license link inside ${name} are not elements`, async (t) => {
    const e = engine();
    try {
      const before = origins.hits('decoy.test', '/grant.xml');
      const r = await read(e, `https://decoy.test${decoySlug(i)}`);
      t.is(cls(r, 'ai-train'), 'NO_MACHINE_READABLE_DECLARATION', unread(r));
      t.is(cls(r, 'search'), 'NO_MACHINE_READABLE_DECLARATION');
      t.false(r.declaration_found);
      t.deepEqual(r.documents, []);
      t.is(origins.hits('decoy.test', '/grant.xml'), before, 'the decoy link target is never fetched');
    } finally {
      e.close();
    }
  });
}

test('class 1: after every decoy the tokenizer is back in markup: the real inline prohibition is read', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://decoy.test/all-then-real');
    t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(cls(r, 'ai-input'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.is(r.documents.length, 1);
    t.is(r.documents[0]!.url, 'https://decoy.test/all-then-real#rsl-script-1');
  } finally {
    e.close();
  }
});

test('class 1: attribute values are decoded by the tokenizer rules (character references)', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://decoy.test/entity-href');
    t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    t.deepEqual(
      r.documents.map((d) => d.url),
      ['https://decoy.test/prohibit.xml'],
    );
  } finally {
    e.close();
  }
});

const encodingCases: Array<[string, string, { name: string; source: string }]> = [
  ['/utf16le-bom', 'a UTF-16LE page with a BOM', { name: 'UTF-16LE', source: 'bom' }],
  ['/utf16be-bom-over-http', 'a BOM over the HTTP charset', { name: 'UTF-16BE', source: 'bom' }],
  ['/utf16-http', 'the HTTP charset without a BOM', { name: 'UTF-16LE', source: 'http-charset' }],
];
for (const [path, what, encoding] of encodingCases) {
  test(`class 2: ${what} is decoded before reading; its inline prohibition beats the site grant`, async (t) => {
    const e = engine();
    try {
      const r = await read(e, `https://enc.test${path}`);
      t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
      t.is(cls(r, 'ai-input'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
      t.deepEqual(resourceObs(r).encoding, encoding);
    } finally {
      e.close();
    }
  });
}

const byteCases: Array<[string, string, { name: string; source: string }]> = [
  ['/meta-utf8', '<meta charset> in the first 1024 bytes', { name: 'UTF-8', source: 'meta' }],
  ['/meta-http-equiv', '<meta http-equiv content-type>', { name: 'UTF-8', source: 'meta' }],
  ['/default-1252', 'no label at all (windows-1252 by default)', { name: 'windows-1252', source: 'default' }],
];
for (const [path, what, encoding] of byteCases) {
  test(`class 2: ${what} decides how a non-ASCII href is read`, async (t) => {
    const e = engine();
    try {
      const r = await read(e, `https://enc.test${path}`);
      // Read in the right encoding, é is %C3%A9 (the prohibition); misread, it is Ã© (a grant).
      t.deepEqual(r.documents.map((d) => d.url).sort(), [
        'https://enc.test/licence-%C3%A9.xml',
        'https://enc.test/site.xml',
      ]);
      t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
      t.deepEqual(resourceObs(r).encoding, encoding);
    } finally {
      e.close();
    }
  });
}

test('class 2: a <meta charset> after the first 1024 bytes does not decide (the default does)', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://enc.test/meta-too-late');
    t.deepEqual(resourceObs(r).encoding, { name: 'windows-1252', source: 'default' });
    // Read as windows-1252 the UTF-8 é is Ã©: the document linked there grants, as a browser would see it.
    t.true(r.documents.some((d) => d.url === 'https://enc.test/licence-%C3%83%C2%A9.xml'));
  } finally {
    e.close();
  }
});

test('class 2: an undecodable page is UNKNOWN, never silence, and blocks the site grant', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://enc.test/undecodable');
    for (const p of ['ai-train', 'ai-input', 'search']) t.is(cls(r, p), 'UNKNOWN');
    t.false(r.discovery_complete);
    const obs = resourceObs(r);
    t.deepEqual(obs.encoding, { name: 'replacement', source: 'http-charset' });
    t.is(obs.error?.code, 'PAGE_UNDECODABLE');
  } finally {
    e.close();
  }
});

test('class 3: relative targets resolve against the first <base href> outside templates', async (t) => {
  const e = engine();
  try {
    const trap = origins.hits('base.test', '/articles/page.xml');
    for (const path of ['/articles/story', '/articles/late-base']) {
      const r = await read(e, `https://base.test${path}`);
      t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION', `${path}: ${unread(r)}`);
      t.true(r.documents.some((d) => d.url === 'https://base.test/licences/page.xml'));
      t.true(resourceObs(r).notes.some((n) => n.includes('https://base.test/licences/')));
    }
    t.is(origins.hits('base.test', '/articles/page.xml'), trap, 'the page-relative target is never fetched');
  } finally {
    e.close();
  }
});

test('class 4: an inline prohibition naming its canonical original governs the copy over the site grant', async (t) => {
  const e = engine();
  try {
    const r = await read(e, 'https://copy.test/syndicated/story');
    t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION', unread(r));
    t.is(cls(r, 'ai-input'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
    const inline = r.documents.find((d) => d.channel === 'html-inline')!;
    t.true(inline.problems.some((p) => p.code === 'INLINE_CANONICAL_ELSEWHERE' && p.message.includes('original.test')));
    // search is not AI, but a block whose grants are not relied on still keeps the site grant from answering.
    t.is(cls(r, 'search'), 'UNKNOWN');
  } finally {
    e.close();
  }
});

test('class 4: an inline grant naming another work is not relied on, nor lets the site grant through', async (t) => {
  const e = engine();
  try {
    const copy = await read(e, 'https://copy.test/syndicated/granted');
    for (const p of ['ai-train', 'ai-input', 'search']) t.is(cls(copy, p), 'UNKNOWN', p);
    const alone = await read(e, 'https://open.test/copy');
    for (const p of ['ai-train', 'ai-input', 'search']) t.is(cls(alone, p), 'UNKNOWN', p);
    // Naming the page itself, the same block is read as written.
    const own = await read(e, 'https://copy.test/own/story');
    t.is(cls(own, 'ai-train'), 'PERMITTED_BY_OBSERVED_DECLARATION');
  } finally {
    e.close();
  }
});

test.serial(
  'class 5: a robots.txt over 500 KiB is parsed to at least its first 500 KiB; nothing beyond becomes a grant',
  async (t) => {
    const e = engine();
    try {
      const r = await read(e, 'https://big.test/page');
      t.is(cls(r, 'ai-train'), 'PROHIBITED_BY_OBSERVED_DECLARATION');
      // The rest of the file was not read: discovery is incomplete, and search (silent here) is UNKNOWN.
      t.false(r.discovery_complete);
      t.is(cls(r, 'search'), 'UNKNOWN');
      const robots = r.observations.find((o) => o.channel === 'robots')!;
      t.is(robots.truncated_at_bytes, robotsReadBytes(ROBOTS_PARSE_LIMIT_BYTES));
      t.is(robots.bytes, robotsReadBytes(ROBOTS_PARSE_LIMIT_BYTES));
      t.true(robots.notes.some((n) => n.includes('RFC 9309')));
      t.deepEqual(r.documents.map((d) => d.url).sort(), [
        'https://big.test/crossing.xml',
        'https://big.test/inside.xml',
      ]);
      for (const p of ['/beyond.xml', '/cut', '/cut-short-of-its-name.xml']) t.is(origins.hits('big.test', p), 0, p);
    } finally {
      e.close();
    }
  },
);

test.serial('class 5: the limit is configurable upward only', async (t) => {
  t.is(loadConfig({}).robotsParseLimitBytes, 500 * 1024);
  t.is(loadConfig({ ROBOTS_PARSE_LIMIT_BYTES: '1048576' }).robotsParseLimitBytes, 1_048_576);
  const error = t.throws(() => loadConfig({ ROBOTS_PARSE_LIMIT_BYTES: '100000' }), { instanceOf: ConfigError });
  t.is(error?.variable, 'ROBOTS_PARSE_LIMIT_BYTES');
  const e = engine(1024 * 1024);
  try {
    const r = await read(e, 'https://big.test/page');
    t.is(r.observations.find((o) => o.channel === 'robots')!.truncated_at_bytes, undefined);
    t.true(r.documents.some((d) => d.url === 'https://big.test/beyond.xml'));
    // Both robots.txt documents are now read, at equal weight, and they disagree.
    t.is(cls(r, 'ai-train'), 'CONFLICT');
  } finally {
    e.close();
  }
});
