import test from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isRight } from 'fp-ts/lib/Either.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import { ResourceReading } from '../../src/rsl/reading.js';
import { unavailability } from '../../src/rsl/unavailability.js';
import { fixturesDir } from './helpers.js';
import { makeCerts, send, startOrigins, type TestCerts, type TestOrigins } from './tls-origins.js';

// The robots.txt corpus (test/fixtures/rsl/robots/, the cases with a `# Served:` line) read end to end:
// each case is served as the robots.txt of an HTTPS origin of its own on 127.0.0.1, beside three license
// documents, and the reading must be what the case's `# Expect…` lines say. Each case names the
// standard's sentence that decides it (`# Decides:`). A new case is a new file; nothing here changes.
//
//   # Served: <status> <content-type>        how the origin answers /robots.txt
//   # Expect: <purpose>=<CLASSIFICATION> …    the reading's classification per purpose
//   # Expect-reason: <rule> [<text>]          some token's reasons hold this rule (its detail holds <text>)
//   # Expect-signal: <standard> <token>=<verdict> …   some observation of the standard reads so
//   # Never-fetched: <path> …                 documents the reading must never fetch
//   # Expect-no-signal: <standard> …          no observation of the standard comes from robots.txt
//   # Expect-quote: AVAILABLE | <reason> [<failure kind>]   what a quote on the reading answers
//   # PAD-TO <bytes>                          replaced by comment lines up to that many bytes of file

const NS = 'https://rslstandard.org/rsl';
const RSL = 'application/rsl+xml';
const DOCUMENTS: Record<string, string> = {
  '/grant.xml':
    `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
    '<payment type="free"/></license></content></rsl>',
  '/prohibit.xml':
    `<rsl xmlns="${NS}"><content url="/"><license><prohibits type="usage">all</prohibits>` +
    '</license></content></rsl>',
  '/paid.xml':
    `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
    '<payment type="crawl"><amount currency="USD">0.01</amount></payment></license></content></rsl>',
};

interface Case {
  file: string;
  host: string;
  status: number;
  type: string;
  body: Buffer;
  expect: Array<[string, string]>;
  reasons: Array<{ rule: string; text: string }>;
  signals: Array<{ standard: string; token: string; verdict: string }>;
  neverFetched: string[];
  quote: string[];
  noSignal: string[];
}

/** The text of a case as its BOM says (UTF-16 cases are stored in UTF-16). */
function decodeCase(bytes: Buffer): { text: string; encode: (s: string) => Buffer } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return {
      text: bytes.subarray(2).toString('utf16le'),
      encode: (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]),
    };
  return { text: bytes.toString('utf8'), encode: (s) => Buffer.from(s, 'utf8') };
}

function loadCase(file: string): Case | null {
  const host = `robots-${file.slice(0, 2)}.test`;
  const { text: raw, encode } = decodeCase(readFileSync(path.join(fixturesDir, 'robots', file)));
  const served = /^# Served: (\d{3}) (\S+)$/m.exec(raw);
  if (!served) return null;
  const lines = raw.replaceAll('https://example.com/', `https://${host}/`).split('\n');
  let text = '';
  for (const line of lines.slice(0, -1)) {
    const pad = /^# PAD-TO (\d+)$/.exec(line);
    if (!pad) {
      text += `${line}\n`;
      continue;
    }
    // Bytes as served: a UTF-8 case counts one byte per ASCII character.
    while (encode(text).length < Number(pad[1]) - 27) text += '# padding padding padding\n';
    while (encode(text).length < Number(pad[1]) - 1) text += '#';
    text += '\n';
  }
  text += lines.at(-1);
  const field = (name: string) =>
    [...raw.matchAll(new RegExp(`^# ${name}: (.*)$`, 'gm'))].flatMap((m) => m[1]!.trim().split(/\s+/));
  return {
    file,
    host,
    status: Number(served[1]),
    type: served[2]!,
    body: encode(text),
    expect: field('Expect').map((kv) => kv.split('=') as [string, string]),
    reasons: [...raw.matchAll(/^# Expect-reason: (\S+)(?: (.*))?$/gm)].map((m) => ({
      rule: m[1]!,
      text: (m[2] ?? '').trim(),
    })),
    signals: [...raw.matchAll(/^# Expect-signal: (\S+) (.*)$/gm)].flatMap((m) =>
      m[2]!
        .trim()
        .split(/\s+/)
        .map((kv) => ({ standard: m[1]!, token: kv.split('=')[0]!, verdict: kv.split('=')[1]! })),
    ),
    neverFetched: field('Never-fetched'),
    quote: field('Expect-quote'),
    noSignal: field('Expect-no-signal'),
  };
}

const CASES = readdirSync(path.join(fixturesDir, 'robots'))
  .sort()
  .map(loadCase)
  .filter((c): c is Case => c !== null);

let certs: TestCerts;
let origins: TestOrigins;
let e: RslEngine;
const UNHURRIED = { connectTimeoutMs: 15_000, readTimeoutMs: 15_000, totalTimeoutMs: 30_000 };

test.before(async () => {
  const hosts = CASES.map((c) => c.host);
  certs = makeCerts(hosts);
  origins = await startOrigins(certs);
  for (const c of CASES) {
    origins.route(c.host, '/robots.txt', send(c.status, c.type, c.body));
    for (const [p, body] of Object.entries(DOCUMENTS)) origins.route(c.host, p, send(200, RSL, body));
    origins.route(c.host, '/page', send(200, 'text/html; charset=utf-8', '<html><body>article</body></html>'));
  }
  e = createRslEngine(
    {
      coveredOrigins: hosts.map((h) => `https://${h}`),
      fetchAllowLoopback: true,
      fetchExtraCaFile: certs.caFile,
      fetchConnectTo: Object.fromEntries(hosts.map((h) => [h, { address: '127.0.0.1', port: origins.port }])),
    },
    UNHURRIED,
  );
});

test.after.always(async () => {
  e?.close();
  await origins?.close();
});

test('the corpus holds a case for every class: status, groups, the parse limit, byte order marks', (t) => {
  t.true(CASES.length >= 16, `${CASES.length} cases`);
  for (const c of CASES) {
    const raw = decodeCase(readFileSync(path.join(fixturesDir, 'robots', c.file))).text;
    t.regex(raw, /^# Decides: .*(RFC 9309|RSL 1\.0|WHATWG)/m, `${c.file} names the sentence that decides it`);
    t.true(c.expect.length > 0, `${c.file} expects something`);
  }
});

for (const c of CASES) {
  test(`corpus ${c.file}`, async (t) => {
    const r = await e.observe(`https://${c.host}/page`, ['ai-input', 'ai-train', 'search'], {
      userClass: 'commercial',
      geo: null,
      freshnessSeconds: 0,
    });
    t.true(isRight(ResourceReading.decode(JSON.parse(JSON.stringify(r)))), 'the reading round-trips its codec');
    const why = (purpose: string) =>
      JSON.stringify(
        r.purposes.find((p) => p.purpose === purpose)?.tokens.flatMap((tk) => tk.reasons.map((x) => x.rule)),
      );
    for (const [purpose, classification] of c.expect)
      t.is<string | undefined, string>(
        r.purposes.find((p) => p.purpose === purpose)?.classification,
        classification,
        `${purpose}: ${why(purpose)}`,
      );
    const reasons = r.purposes.flatMap((p) => p.tokens.flatMap((tk) => tk.reasons));
    for (const want of c.reasons)
      t.true(
        reasons.some((x) => x.rule === want.rule && x.detail.includes(want.text)),
        `a reason ${want.rule} ${want.text}: ${JSON.stringify(reasons.map((x) => x.rule))}`,
      );
    for (const want of c.signals)
      t.true(
        (r.signals ?? []).some(
          (o) =>
            o.standard === want.standard &&
            o.readings.some((x) => x.token === want.token && x.verdict === want.verdict),
        ),
        `${want.standard} reads ${want.token}=${want.verdict}: ${JSON.stringify(r.signals?.map((o) => o.statement))}`,
      );
    for (const p of c.neverFetched) t.is(origins.hits(c.host, p), 0, `${p} is never fetched`);
    for (const standard of c.noSignal)
      t.false(
        (r.signals ?? []).some((o) => o.standard === standard && o.channel === 'robots'),
        `no ${standard} statement is read from robots.txt`,
      );
    if (c.quote.length) {
      const u = unavailability(r);
      t.is(u?.reason ?? 'AVAILABLE', c.quote[0]!);
      if (c.quote[1]) t.true(u?.reason === 'FETCH_FAILED' && u.details.failures.some((f) => f.kind === c.quote[1]));
    }
    const robots = r.observations.find((o) => o.channel === 'robots')!;
    t.is(robots.status, c.status, 'the answer to robots.txt is recorded');
    t.regex(robots.sha256 ?? '', /^[0-9a-f]{64}$/, 'with its digest');
  });
}
