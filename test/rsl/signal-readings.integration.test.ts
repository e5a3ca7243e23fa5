import test from 'ava';
import { tmpdir } from 'node:os';
import { rslDocument, startTestOrigins, type TestOrigins } from '../../src/devnet/https-origin.js';
import type { SignalToken } from '@rights-preflight/wire/signals/signal-observation.js';
import { loadConfig } from '../../src/config/config.js';
import { createRslEngine, type RslEngine } from '../../src/rsl/engine.js';
import type { ResourceReading } from '../../src/rsl/reading.js';
import { summarizeSignals } from '../../src/signals/summarize.js';
import { TDMREP_MAX_REDIRECTS } from '../../src/rsl/signal-discovery.js';

// TDMRep files and AI preferences as the standards' careful readers read them, end to end through real
// HTTPS publishers on loopback: a tdmrep.json reached through redirects on its origin, a reservation written
// as the JSON string "1", a file whose first matching rule and longest matching rule disagree, and the
// labels of earlier aipref drafts. Each publisher also grants every use free through RSL, so each case is
// a report that would have said NONE_OBSERVED (or CONSISTENT) with the old reading and must now say
// RESTRICTED_BY_OTHER_SIGNAL for ai-train.

const FREE = rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'ai-train', 'search'] });
const withRsl = (host: string) => ({
  '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${host}/rsl.xml\n` },
  '/rsl.xml': { type: 'application/rsl+xml', body: FREE },
});
const plain = { body: '<html><head><title>p</title></head><body>p</body></html>' };
const json = (rules: unknown) => ({ type: 'application/json', body: JSON.stringify(rules) });
const moved = (location: string, status = 301) => ({ status, body: '', headers: { location } });
const RESERVE_ALL = [{ location: '/', 'tdm-reservation': 1 }];

let origins: TestOrigins;
let engine: RslEngine;

test.before(async () => {
  const chain: Record<string, { status?: number; body: string; headers?: Record<string, string> }> = {};
  for (let i = 0; i <= TDMREP_MAX_REDIRECTS; i++)
    chain[i === 0 ? '/.well-known/tdmrep.json' : `/hop-${i}`] = moved(`/hop-${i + 1}`, 302);
  origins = await startTestOrigins({
    'tdm-moved.example': {
      ...withRsl('tdm-moved.example'),
      '/.well-known/tdmrep.json': moved('/.well-known/tdmrep.json/'),
      '/.well-known/tdmrep.json/': moved('https://tdm-moved.example/static/tdmrep.json', 308),
      '/static/tdmrep.json': json(RESERVE_ALL),
      '/page': plain,
    },
    'tdm-endless.example': {
      ...withRsl('tdm-endless.example'),
      ...chain,
      [`/hop-${TDMREP_MAX_REDIRECTS + 1}`]: json(RESERVE_ALL),
      '/page': plain,
    },
    'tdm-elsewhere.example': {
      ...withRsl('tdm-elsewhere.example'),
      '/.well-known/tdmrep.json': moved('https://tdm-moved.example/static/tdmrep.json'),
      '/page': plain,
    },
    'tdm-string.example': {
      ...withRsl('tdm-string.example'),
      '/.well-known/tdmrep.json': json([{ location: '/', 'tdm-reservation': '1' }]),
      '/page': plain,
    },
    'tdm-specific.example': {
      ...withRsl('tdm-specific.example'),
      '/.well-known/tdmrep.json': json([
        { location: '/', 'tdm-reservation': 0 },
        { location: '/articles/', 'tdm-reservation': 1 },
      ]),
      '/articles/page': plain,
    },
    'aipref-vocab01.example': {
      ...withRsl('aipref-vocab01.example'),
      '/page': { ...plain, headers: { 'content-usage': 'ai=n' } },
    },
    'aipref-vocab01-robots.example': {
      ...withRsl('aipref-vocab01-robots.example'),
      '/robots.txt': {
        type: 'text/plain',
        body: 'User-agent: *\nAllow: /\nContent-Usage: tdm=n\nLicense: https://aipref-vocab01-robots.example/rsl.xml\n',
      },
      '/page': plain,
    },
    'aipref-vocab02.example': {
      ...withRsl('aipref-vocab02.example'),
      '/page': { ...plain, headers: { 'content-usage': 'ai-use=n, train-ai=y, train-genai=n' } },
    },
  });
  engine = createRslEngine(loadConfig({ ...origins.env, DATA_DIR: tmpdir() }), {
    connectTimeoutMs: 15_000,
    readTimeoutMs: 15_000,
    totalTimeoutMs: 30_000,
  });
});
test.after.always(async () => {
  engine?.close();
  await origins?.close();
});

const observe = (url: string) =>
  engine.observe(url, ['ai-train', 'ai-input', 'search'], { userClass: 'commercial', geo: null, freshnessSeconds: 0 });
const summary = (r: ResourceReading, token: SignalToken) =>
  summarizeSignals(r.signals ?? [], [token], r.purposes.find((p) => p.purpose === token)!.classification);
const reading = (r: ResourceReading, standard: string, token: SignalToken) =>
  (r.signals ?? []).filter((o) => o.standard === standard).flatMap((o) => o.readings.filter((x) => x.token === token));

test('TDMRep: a tdmrep.json reached through redirects on its own origin is the file', async (t) => {
  const r = await observe('https://tdm-moved.example/page');
  t.is(r.purposes.find((p) => p.purpose === 'ai-train')!.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(summary(r, 'ai-train'), 'RESTRICTED_BY_OTHER_SIGNAL');
  const file = r.signals!.find((o) => o.channel === 'well-known')!;
  t.is(file.url, 'https://tdm-moved.example/static/tdmrep.json', 'the observation names where the file was');
  t.is(origins.requests.filter((q) => q.host === 'tdm-moved.example' && q.path === '/static/tdmrep.json').length, 1);
});

test('TDMRep: redirects are followed at most TDMREP_MAX_REDIRECTS times, and never off the origin', async (t) => {
  const endless = await observe('https://tdm-endless.example/page');
  t.is(summary(endless, 'ai-train'), 'NONE_OBSERVED');
  t.true(endless.diagnostics.some((d) => d.includes('TDMREP_TOO_MANY_REDIRECTS')));
  t.is(
    origins.requests.filter((q) => q.host === 'tdm-endless.example' && q.path.startsWith('/hop-')).length,
    TDMREP_MAX_REDIRECTS,
  );
  const before = origins.requests.filter((q) => q.path === '/static/tdmrep.json').length;
  const elsewhere = await observe('https://tdm-elsewhere.example/page');
  t.true(elsewhere.diagnostics.some((d) => d.includes('TDMREP_REDIRECT')));
  t.is(origins.requests.filter((q) => q.path === '/static/tdmrep.json').length, before, 'no fetch off the origin');
});

test('TDMRep: "tdm-reservation": "1" as a JSON string reserves, and says why', async (t) => {
  const r = await observe('https://tdm-string.example/page');
  t.is(summary(r, 'ai-train'), 'RESTRICTED_BY_OTHER_SIGNAL');
  const [train] = reading(r, 'tdmrep', 'ai-train');
  t.is(train!.verdict, 'reserved');
  t.regex(train!.rule, /TDMREP_STRING_VALUE/);
});

test('TDMRep: the first matching rule grants, a longer one reserves: the more restrictive decides', async (t) => {
  const r = await observe('https://tdm-specific.example/articles/page');
  t.is(summary(r, 'ai-train'), 'RESTRICTED_BY_OTHER_SIGNAL');
  const [train] = reading(r, 'tdmrep', 'ai-train');
  t.is(train!.verdict, 'reserved');
  t.regex(train!.rule, /TDMREP_RULE_MOST_SPECIFIC/);
});

test('aipref: vocab-01 `ai=n` in Content-Usage reserves ai-train, naming the draft', async (t) => {
  const r = await observe('https://aipref-vocab01.example/page');
  t.is(summary(r, 'ai-train'), 'RESTRICTED_BY_OTHER_SIGNAL');
  const [train] = reading(r, 'aipref', 'ai-train');
  t.regex(train!.rule, /^AIPREF_VOCAB_01: ai=n \(AI Training, draft-ietf-aipref-vocab-01\)/);
});

test('aipref: vocab-01 `tdm=n` in robots.txt reserves every use, search by its registry reading', async (t) => {
  const r = await observe('https://aipref-vocab01-robots.example/page');
  for (const token of ['ai-train', 'ai-input', 'search'] as const)
    t.is(summary(r, token), 'RESTRICTED_BY_OTHER_SIGNAL', token);
  t.regex(reading(r, 'aipref', 'search')[0]!.rule, /registry, the more restrictive, is read/);
});

test('aipref: vocab-02 `ai-use=n` and `train-genai=n` beside -07 `train-ai=y` reserve', async (t) => {
  const r = await observe('https://aipref-vocab02.example/page');
  t.is(summary(r, 'ai-train'), 'RESTRICTED_BY_OTHER_SIGNAL');
  t.is(summary(r, 'ai-input'), 'RESTRICTED_BY_OTHER_SIGNAL');
  t.regex(reading(r, 'aipref', 'ai-train')[0]!.rule, /^AIPREF_VOCAB_0[23]: train-genai=n/);
  t.regex(reading(r, 'aipref', 'ai-input')[0]!.rule, /^AIPREF_VOCAB_02: ai-use=n/);
});
