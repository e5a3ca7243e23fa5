import test from 'ava';
import { evaluate, evaluatePurpose, type DocumentInput } from '../../src/rsl/evaluate/evaluate.js';
import { parseRsl } from '../../src/rsl/parse/parse.js';
import { readRobotsLicenses } from '../../src/rsl/robots.js';
import type { EvaluatedToken } from '@rights-preflight/wire/rsl/purposes.js';
import type { Classification } from '@rights-preflight/wire/rsl/vocabulary.js';
import { docInput, fixture, fixtureNames, wrapFragment } from './helpers.js';

const P = 'PERMITTED_BY_OBSERVED_DECLARATION';
const X = 'PROHIBITED_BY_OBSERVED_DECLARATION';
const L = 'LICENSE_REQUIRED';
const U = 'UNKNOWN';

const ask = (docs: DocumentInput[], resource: string, token: EvaluatedToken) =>
  evaluate(docs, { resource, token, userClass: 'commercial', geo: null });

function expectReadings(
  t: import('ava').ExecutionContext,
  doc: DocumentInput,
  resource: string,
  expected: Partial<Record<EvaluatedToken, Classification>>,
) {
  for (const [token, classification] of Object.entries(expected)) {
    const e = ask([doc], resource, token as EvaluatedToken);
    t.is(e.classification, classification, `${token} at ${resource}: ${JSON.stringify(e.reasons.map((r) => r.rule))}`);
    t.true(
      e.classification === 'NO_MACHINE_READABLE_DECLARATION' || e.reasons.length > 0,
      'every reading is explained',
    );
  }
}

test('fixture directory holds exactly the files these tests read', (t) => {
  t.deepEqual(fixtureNames(), [
    '01-rslcollective-sitewide-standard-no-type.xml',
    '02-rslcollective-section-exclusion.FRAGMENT.xml',
    '05-rslcollective-encrypted-archive.xml',
    '06-spec-sitewide-prohibit-ai-all.xml',
    '07-real-rslcollective-royalty.xml',
    '08-real-stackoverflow-license-NONCONFORMANT.xml',
    '10-naulon-free-search-priced-ai-input-x402.xml',
    '11-skeleton-all-elements.xml',
    '13-schemaorg-gutenberg-free.xml',
    '16-LEGACY-MALFORMED-curly-quotes-train-ai.xml',
  ]);
});

test('01: ai-all under a <standard> with no type: AI uses need a license, search is closed out', (t) => {
  const doc = docInput(fixture('01-rslcollective-sitewide-standard-no-type.xml'));
  expectReadings(t, doc, 'https://publisher.test/any/page', {
    'ai-train': L,
    'ai-input': L,
    'ai-index': L,
    search: X,
    crawl: X,
  });
  const e = ask([doc], 'https://publisher.test/any/page', 'ai-train');
  t.deepEqual(e.obligations, ['payment:unspecified-type standard=https://rslcollective.org/license']);
  t.is(e.decision, 'LICENSE_REQUIRED');
  t.is(ask([doc], 'https://publisher.test/', 'search').reasons[0]!.rule, 'usage-closure');
});

test('02: the narrower section prohibits ai-all; the broad section still licenses AI elsewhere', (t) => {
  const doc = docInput(wrapFragment(fixture('02-rslcollective-section-exclusion.FRAGMENT.xml')));
  t.true(doc.parse!.ok);
  expectReadings(t, doc, 'https://publisher.test/original-reporting/x', {
    'ai-train': L,
    'ai-input': L,
    'ai-index': L,
    search: X,
  });
  expectReadings(t, doc, 'https://publisher.test/original-reporting/licensed-wire-images/x', {
    'ai-train': X,
    'ai-input': X,
    'ai-index': X,
    search: X,
  });
  const e = ask([doc], 'https://publisher.test/original-reporting/licensed-wire-images/x', 'ai-input');
  t.is(e.decision, 'DENY_DECLARED');
  t.is(e.reasons[0]!.content_url, '/original-reporting/licensed-wire-images/');
  t.is(e.reasons[0]!.rule, 'usage-prohibited');
  // Outside both sections nothing matches: found but silent, never permission.
  expectReadings(t, doc, 'https://publisher.test/elsewhere', { 'ai-input': U });
});

test('02 unwrapped is not an RSL document', (t) => {
  const r = parseRsl(fixture('02-rslcollective-section-exclusion.FRAGMENT.xml'));
  t.false(r.ok);
});

test('05: encrypted archive needs a license-server token and a key', (t) => {
  const doc = docInput(fixture('05-rslcollective-encrypted-archive.xml'));
  expectReadings(t, doc, 'https://publisher.test/subscriber/archive-2026.warc.enc', {
    'ai-train': L,
    'ai-input': L,
    search: X,
  });
  const e = ask([doc], 'https://publisher.test/subscriber/archive-2026.warc.enc', 'ai-train');
  t.true(e.obligations.includes('license-server-token:https://api.rslcollective.org'));
  t.true(e.obligations.includes('encrypted:decryption-key'));
  expectReadings(t, doc, 'https://publisher.test/subscriber/other', { 'ai-train': U });
});

test('06: site-wide prohibit ai-all: every AI use prohibited, search unspecified (UNKNOWN)', (t) => {
  const doc = docInput(fixture('06-spec-sitewide-prohibit-ai-all.xml'));
  expectReadings(t, doc, 'https://publisher.test/a', {
    'ai-train': X,
    'ai-input': X,
    'ai-index': X,
    search: U,
    crawl: U,
  });
  t.is(ask([doc], 'https://publisher.test/a', 'search').reasons[0]!.rule, 'no-usage-statement');
});

test('07: real royalty.xml: AI uses licensed per use with a license-server token; search closed out', (t) => {
  const doc = docInput(fixture('07-real-rslcollective-royalty.xml'));
  expectReadings(t, doc, 'https://publisher.test/', { 'ai-train': L, 'ai-input': L, 'ai-index': L, search: X });
  const e = ask([doc], 'https://publisher.test/', 'ai-input');
  t.deepEqual(e.obligations, ['license-server-token:https://api.rslcollective.org', 'payment:use']);
});

test('08: real Stack Overflow file without <license> is non-conformant and grants nothing', (t) => {
  const doc = docInput(fixture('08-real-stackoverflow-license-NONCONFORMANT.xml'));
  t.true(doc.parse!.ok && !doc.parse!.conformant);
  t.true(doc.parse!.ok && doc.parse!.problems.some((p) => p.code === 'CONTENT_WITHOUT_LICENSE'));
  expectReadings(t, doc, 'https://publisher.test/q/1', { 'ai-train': U, 'ai-input': U, search: U });
  t.is(ask([doc], 'https://publisher.test/q/1', 'ai-input').reasons[0]!.rule, 'document-nonconformant');
});

test('10: free search, priced ai-input/ai-index, ai-train closed out by both licenses', (t) => {
  const doc = docInput(fixture('10-naulon-free-search-priced-ai-input-x402.xml'));
  expectReadings(t, doc, 'https://publisher.test/articles/rsl', {
    search: P,
    'ai-input': L,
    'ai-index': L,
    'ai-train': X,
  });
  t.deepEqual(ask([doc], 'https://publisher.test/articles/rsl', 'ai-index').obligations, ['payment:crawl 0.0011 USD']);
  t.is(ask([doc], 'https://publisher.test/articles/rsl', 'search').decision, 'ALLOW_DECLARED');
  // `/articles/*` needs the "/articles/" prefix: the bare "/articles" is outside the scope.
  expectReadings(t, doc, 'https://publisher.test/articles', { search: U });
  const rag = evaluatePurpose([doc], {
    resource: 'https://publisher.test/articles/rsl',
    purpose: 'rag-ingestion',
    userClass: 'commercial',
    geo: null,
  });
  t.deepEqual(
    rag.tokens.map((e) => [e.token, e.classification]),
    [
      ['ai-index', L],
      ['ai-input', L],
    ],
  );
  t.is(rag.classification, L);
});

test('11: skeleton: search/ai-input with attribution, token and reporting; ai-train prohibited', (t) => {
  const doc = docInput(fixture('11-skeleton-all-elements.xml'));
  t.true(doc.parse!.ok && doc.parse!.conformant);
  t.is(doc.parse!.ok && doc.parse!.document.maxAgeDays, 30);
  expectReadings(t, doc, 'https://publisher.test/x', { search: L, 'ai-input': L, 'ai-train': X, 'ai-index': X });
  t.deepEqual(ask([doc], 'https://publisher.test/x', 'search').obligations, [
    'attribution',
    'license-server-token:https://licensing.example.com',
    'reporting:telemetry profile=https://profiles.example/telemetry',
  ]);
});

test('13: absolute content url, free, no permits: silence is not permission (UNKNOWN)', (t) => {
  const doc = docInput(fixture('13-schemaorg-gutenberg-free.xml'), { url: 'https://gutenberg.org/license.xml' });
  expectReadings(t, doc, 'https://gutenberg.org/2701/pg2701-h.zip', { 'ai-train': U, search: U });
  t.is(ask([doc], 'https://gutenberg.org/2701/pg2701-h.zip', 'search').reasons[0]!.rule, 'no-usage-statement');
  // The absolute url names another origin than this one: it governs nothing here.
  t.is(ask([doc], 'https://publisher.test/2701/pg2701-h.zip', 'search').reasons[0]!.rule, 'no-matching-content');
});

test('16: curly quotes are not XML: no valid document, UNKNOWN', (t) => {
  const doc = docInput(fixture('16-LEGACY-MALFORMED-curly-quotes-train-ai.xml'));
  t.false(doc.parse!.ok);
  t.is(!doc.parse!.ok && doc.parse!.code, 'XML_MALFORMED');
  expectReadings(t, doc, 'https://publisher.test/', { 'ai-train': U });
  t.is(ask([doc], 'https://publisher.test/', 'ai-train').reasons[0]!.rule, 'document-invalid');
});

test('16 repaired: the legacy token train-ai may prohibit ai-train, and nothing else', (t) => {
  const repaired = fixture('16-LEGACY-MALFORMED-curly-quotes-train-ai.xml').replaceAll('url=”/”', 'url="/"');
  const doc = docInput(repaired);
  t.true(doc.parse!.ok && doc.parse!.problems.some((p) => p.code === 'LEGACY_TOKEN'));
  expectReadings(t, doc, 'https://publisher.test/', { 'ai-train': X, 'ai-input': U, search: U });
  t.is(ask([doc], 'https://publisher.test/', 'ai-train').reasons[0]!.rule, 'legacy-token-prohibited');
  const permitting = docInput(repaired.replace('<prohibits', '<permits').replace('</prohibits>', '</permits>'));
  // Legacy tokens never permit: a permits list of only "train-ai" closes ai-train out.
  expectReadings(t, permitting, 'https://publisher.test/', { 'ai-train': X });
});

test('no associations at all: NO_MACHINE_READABLE_DECLARATION', (t) => {
  const e = ask([], 'https://publisher.test/', 'ai-input');
  t.is(e.classification, 'NO_MACHINE_READABLE_DECLARATION');
  t.is(e.decision, 'UNKNOWN');
});

test('robots 01: each crawler selects its own group; ExampleBot and * are two readings, both read', (t) => {
  const r = readRobotsLicenses(fixture('robots/01-spec-group-scoped.robots.txt'), 'https://example.com/robots.txt');
  t.deepEqual(r.candidates, ['https://example.com/default-license.xml']);
  t.is(r.selectedFrom, 'star-group');
  t.deepEqual(r.otherGroups, [
    { userAgents: ['examplebot'], licenses: ['https://example.com/examplebot-license.xml'] },
  ]);
  t.deepEqual(
    r.readings.map((x) => [x.agents, x.from, x.licenses.map((l) => l.value)]),
    [
      [['*'], 'group', ['https://example.com/default-license.xml']],
      [['examplebot'], 'group', ['https://example.com/examplebot-license.xml']],
    ],
  );
});

test('robots readings: a group without License lines selects the global ones; same sets are one reading', (t) => {
  const text =
    'License: https://p.test/global.xml\nUser-agent: *\nDisallow:\n\nUser-agent: A\nUser-agent: B\nDisallow: /x\n\n' +
    'User-agent: C\nLicense: https://p.test/c.xml\n\nUser-agent: c\nLicense: ftp://p.test/c2.xml\n';
  const r = readRobotsLicenses(text, 'https://p.test/robots.txt');
  t.deepEqual(
    r.readings.map((x) => [x.agents, x.from, x.licenses.map((l) => l.value)]),
    [
      [['*', 'a', 'b'], 'global', ['https://p.test/global.xml']],
      [['c'], 'group', ['https://p.test/c.xml', 'ftp://p.test/c2.xml']],
    ],
  );
  t.deepEqual(r.rejected, [
    { line: 13, value: 'ftp://p.test/c2.xml', reason: 'scheme ftp: is not https', agents: ['c'] },
  ]);
  // No group at all: every crawler reads the global lines.
  t.deepEqual(
    readRobotsLicenses('License: https://p.test/g.xml\n', 'https://p.test/robots.txt').readings.map((x) => x.agents),
    [['*']],
  );
});

test('per-crawler readings: the most restrictive answers, each reading is reported, page-level still decides', (t) => {
  const grant =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">all</permits>' +
    '<payment type="free"/></license></content></rsl>';
  const prohibit =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/">' +
    '<license><prohibits type="usage">ai-train</prohibits></license></content></rsl>';
  const star = { ...docInput(grant, { url: 'https://publisher.test/a.xml' }), robotsReadings: [0] };
  const bot = { ...docInput(prohibit, { url: 'https://publisher.test/b.xml' }), robotsReadings: [1] };
  const crawlers = [{ agents: ['*'] }, { agents: ['gptbot'] }, { agents: ['ccbot'] }];
  const q = (token: EvaluatedToken, docs: DocumentInput[], c = crawlers) =>
    evaluate(docs, { resource: 'https://publisher.test/x', token, userClass: 'commercial', geo: null }, undefined, c);
  const train = q('ai-train', [star, bot], crawlers.slice(0, 2));
  t.is(train.classification, X);
  t.deepEqual(train.robots_groups, [
    { user_agents: ['gptbot'], classification: X },
    { user_agents: ['*'], classification: P },
  ]);
  t.true(train.reasons.some((r) => r.rule === 'robots-crawler-reading' && r.detail.includes('read as gptbot')));
  // ai-input: gptbot's license is silent on it, so that reading is UNKNOWN (silence is not permission).
  t.is(q('ai-input', [star, bot], crawlers.slice(0, 2)).classification, U);
  // ccbot selects nothing: nothing is declared for it, which a grant to others does not outweigh.
  const three = q('search', [star, bot]);
  t.is(three.classification, U);
  t.true(
    three.robots_groups!.some(
      (g) => g.user_agents[0] === 'ccbot' && g.classification === 'NO_MACHINE_READABLE_DECLARATION',
    ),
  );
  // A page-level declaration beats robots.txt for every crawler alike.
  const page = docInput(grant, { url: 'https://publisher.test/x', channel: 'html-inline' });
  t.is(q('ai-train', [star, bot, page], crawlers.slice(0, 2)).classification, P);
  // One reading (or none given): no per-crawler detail, as before.
  t.is(q('ai-train', [star], []).robots_groups, undefined);
});

test('robots 02: two global lines are both candidates', (t) => {
  const r = readRobotsLicenses(
    fixture('robots/02-multiple-global-license-lines.robots.txt'),
    'https://example.com/robots.txt',
  );
  t.deepEqual(r.candidates, ['https://example.com/rsl.xml', 'https://example.com/rsl-premium.xml']);
  t.is(r.selectedFrom, 'global');
});

test('robots 03: a global License line with an allow-all * group', (t) => {
  const r = readRobotsLicenses(fixture('robots/03-rslstandard-org.robots.txt'), 'https://rslstandard.org/robots.txt');
  t.deepEqual(r.candidates, ['https://rslcollective.org/royalty.xml']);
  t.is(r.selectedFrom, 'global');
  t.deepEqual(r.otherGroups, []);
});

test(
  'robots: License after the * group stays in it (strict RFC 9309), ' +
    'relative values resolved and flagged, http refused',
  (t) => {
    const text =
      'User-agent: *\nDisallow: /private\n\nSitemap: https://p.test/s.xml\nLicense: /license.xml\n' +
      'License: http://p.test/plain.xml\nlicense:https://p.test/b.xml # comment\n';
    const r = readRobotsLicenses(text, 'https://p.test/robots.txt');
    t.is(r.selectedFrom, 'star-group');
    t.deepEqual(r.candidates, ['https://p.test/license.xml', 'https://p.test/b.xml']);
    t.deepEqual(r.resolvedRelative, ['/license.xml']);
    t.is(r.rejected.length, 1);
  },
);

test('two documents that disagree at equal weight are a CONFLICT; page-level beats robots', (t) => {
  const permit =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">ai-input</permits>' +
    '<payment type="free"/></license></content></rsl>';
  const prohibit =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/">' +
    '<license><prohibits type="usage">ai-input</prohibits></license></content></rsl>';
  const a = docInput(permit, { url: 'https://publisher.test/a.xml' });
  const b = docInput(prohibit, { url: 'https://publisher.test/b.xml' });
  t.is(ask([a, b], 'https://publisher.test/x', 'ai-input').classification, 'CONFLICT');
  t.is(ask([a, b], 'https://publisher.test/x', 'ai-input').decision, 'UNKNOWN');
  const pagePermit = docInput(permit, { url: 'https://publisher.test/x', channel: 'html-inline' });
  t.is(ask([pagePermit, b], 'https://publisher.test/x', 'ai-input').classification, P);
  // A failed association next to a permission makes it UNKNOWN; next to a prohibition it stays DENY.
  const failed: DocumentInput = {
    channel: 'robots',
    url: 'https://publisher.test/c.xml',
    sha256: null,
    parse: null,
    failure: { code: 'FETCH_TIMEOUT', message: 'timed out' },
  };
  t.is(ask([a, failed], 'https://publisher.test/x', 'ai-input').classification, U);
  t.is(ask([b, failed], 'https://publisher.test/x', 'ai-input').classification, X);
});

test('user and geo axes: a license for other clients does not apply; EU token covers member states', (t) => {
  const xml =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/"><license><permits type="usage">ai-input</permits>' +
    '<permits type="user">education</permits><permits type="geo">EU</permits></license></content></rsl>';
  const doc = docInput(xml);
  const q = (userClass: 'commercial' | 'education', geo: string | null) =>
    evaluate([doc], { resource: 'https://publisher.test/', token: 'ai-input', userClass, geo });
  t.is(q('education', 'FR').classification, P);
  t.is(q('commercial', 'FR').classification, X);
  t.is(q('education', 'US').classification, X);
  t.is(q('education', null).reasons[0]!.rule, 'geo-unknown');
});

test('Guardian shape: permits ai-input with payment and prohibits all in one license: prohibited', (t) => {
  const xml =
    '<rsl xmlns="https://rslstandard.org/rsl"><content url="/">' +
    '<license><permits type="usage">ai-train ai-input</permits>' +
    '<payment type="subscription"><custom>https://licensing.example/</custom></payment>' +
    '<prohibits type="usage">all</prohibits></license></content></rsl>';
  const e = ask([docInput(xml)], 'https://publisher.test/', 'ai-input');
  t.is(e.classification, X);
  t.is(e.reasons[0]!.rule, 'permit-vs-prohibit');
});
