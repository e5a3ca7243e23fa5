import test from 'ava';
import { InspectResponse } from '../../src/http/routes/inspect.js';
import { fixture } from './helpers.js';
import { useFastWorld } from '../support/fast-world.js';

// The free inspection path through a real Koa server on loopback, with the shared JSON body
// reader and io-ts decoding in front of it.

// The free inspection as the service serves it (test/README.md, Worlds).
const route = useFastWorld();

const post = async (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
  const res = await fetch(`${route.url}/v1/rights/inspect`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};
const NS = 'https://rslstandard.org/rsl';
const doc = (inner: string) => `<rsl xmlns="${NS}"><content url="/">${inner}</content></rsl>`;

test('evaluates supplied XML, says plainly it is not a report, and needs no coverage', async (t) => {
  const r = await post({
    resource: 'https://uncovered.example/articles/x',
    purpose: 'search',
    xml: fixture('10-naulon-free-search-priced-ai-input-x402.xml'),
  });
  t.is(r.status, 200);
  t.true(InspectResponse.is(r.body));
  t.is(r.body.kind, 'inspection');
  t.false(r.body.report);
  t.false(r.body.legal_clearance);
  t.false(r.body.fetched);
  t.is(r.body.charge_micro, '0');
  t.regex(r.body.notice, /not a report/);
  t.is(r.body.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(r.body.decision, 'ALLOW_DECLARED');
  t.is(r.body.tokens[0].reasons[0].content_url, '/articles/*');
  t.is(r.body.tokens[0].reasons[0].channel, 'supplied');
  t.is(r.body.user_class, 'commercial');
  t.is(r.headers.get('cache-control'), 'no-store');
});

test('legacy crawl is read only through `all`', async (t) => {
  const resource = 'https://publisher.test/a';
  const permitAll = await post({
    resource,
    purpose: 'crawl',
    xml: doc('<license><permits type="usage">all</permits></license>'),
  });
  t.is(permitAll.body.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  const prohibitAll = await post({
    resource,
    purpose: 'crawl',
    xml: doc('<license><prohibits type="usage">all</prohibits></license>'),
  });
  t.is(prohibitAll.body.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
  const aiOnly = await post({ resource, purpose: 'crawl', xml: fixture('06-spec-sitewide-prohibit-ai-all.xml') });
  t.is(aiOnly.body.classification, 'UNKNOWN');
});

test('user_class and geo are applied; url="" means the inspected resource', async (t) => {
  const xml =
    `<rsl xmlns="${NS}"><content url=""><license><permits type="usage">ai-input</permits>` +
    '<permits type="user">education</permits></license></content></rsl>';
  const edu = await post({
    resource: 'https://publisher.test/a',
    purpose: 'ai-input',
    xml,
    user_class: 'education',
    geo: 'FR',
  });
  t.is(edu.body.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.is(edu.body.geo, 'FR');
  const com = await post({ resource: 'https://publisher.test/a', purpose: 'ai-input', xml, geo: null });
  t.is(com.body.classification, 'PROHIBITED_BY_OBSERVED_DECLARATION');
});

test('malformed and hostile XML are answered as UNKNOWN with the conformance problem', async (t) => {
  const bad = await post({
    resource: 'https://publisher.test/',
    purpose: 'ai-train',
    xml: fixture('16-LEGACY-MALFORMED-curly-quotes-train-ai.xml'),
  });
  t.is(bad.status, 200);
  t.is(bad.body.classification, 'UNKNOWN');
  t.is(bad.body.document.failure.code, 'XML_MALFORMED');
  const bomb = await post({
    resource: 'https://publisher.test/',
    purpose: 'ai-train',
    xml: '<!DOCTYPE r [<!ENTITY a "aaaa">]><rsl xmlns="https://rslstandard.org/rsl">&a;</rsl>',
  });
  t.is(bomb.body.document.failure.code, 'DOCTYPE_REFUSED');
  const nonconformant = await post({
    resource: 'https://publisher.test/',
    purpose: 'ai-input',
    xml: fixture('08-real-stackoverflow-license-NONCONFORMANT.xml'),
  });
  t.false(nonconformant.body.document.conformant);
  t.true(nonconformant.body.document.problems.some((p: { code: string }) => p.code === 'CONTENT_WITHOUT_LICENSE'));
});

test('the resource must pass the §2.2 syntax rule (422 with its code)', async (t) => {
  const r = await post({ resource: 'https://publisher.test/a?x=1', purpose: 'search', xml: doc('') });
  t.is(r.status, 422);
  t.is(r.body.error.code, 'RESOURCE_HAS_QUERY');
  t.is(r.body.error.details.field, 'resource');
  const ip = await post({ resource: 'https://127.1/', purpose: 'search', xml: doc('') });
  t.is(ip.body.error.code, 'RESOURCE_IP_LITERAL');
});

test('decode failures name the field: 400 shape errors, 422 rule errors, 400 unknown fields', async (t) => {
  const purpose = await post({ resource: 'https://publisher.test/', purpose: 'rag-ingestion', xml: '' });
  t.is(purpose.status, 422);
  t.is(purpose.body.error.code, 'VALIDATION_FAILED');
  t.is(purpose.body.error.details.field, 'purpose');
  const missing = await post({ resource: 'https://publisher.test/', purpose: 'search' });
  t.is(missing.status, 400);
  t.is(missing.body.error.code, 'INVALID_REQUEST');
  t.is(missing.body.error.details.field, 'xml');
  const wrongType = await post({ resource: 'https://publisher.test/', purpose: 'search', xml: 42 });
  t.is(wrongType.status, 400);
  t.is(wrongType.body.error.details.field, 'xml');
  const geo = await post({ resource: 'https://publisher.test/', purpose: 'search', xml: '', geo: 'fr' });
  t.is(geo.status, 422);
  t.is(geo.body.error.details.field, 'geo');
  const extra = await post({ resource: 'https://publisher.test/', purpose: 'search', xml: '', tier: 'deep' });
  t.is(extra.status, 400);
  t.is(extra.body.error.code, 'UNKNOWN_FIELD');
  t.is(extra.body.error.details.field, 'tier');
  const notObject = await post([1, 2]);
  t.is(notObject.status, 400);
  t.is(notObject.body.error.code, 'INVALID_REQUEST');
});

test('JSON body rules: 415 wrong media type, 400 malformed JSON, 413 too large', async (t) => {
  const text = await post('{"a":1}', { 'content-type': 'text/plain' });
  t.is(text.status, 415);
  t.is(text.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  const latin = await post('{"a":1}', { 'content-type': 'application/json; charset=iso-8859-1' });
  t.is(latin.status, 415);
  const malformed = await post('{"resource": ', { 'content-type': 'application/json' });
  t.is(malformed.status, 400);
  t.is(malformed.body.error.code, 'MALFORMED_JSON');
  const empty = await post('', { 'content-type': 'application/json' });
  t.is(empty.status, 400);
  t.is(empty.body.error.code, 'MALFORMED_JSON');
  const huge = await post({ resource: 'https://publisher.test/', purpose: 'search', xml: 'x'.repeat(700 * 1024) });
  t.is(huge.status, 413);
  t.is(huge.body.error.code, 'BODY_TOO_LARGE');
});

test('a chunked body over the cap is refused while streaming', async (t) => {
  const big = new TextEncoder().encode(
    JSON.stringify({ resource: 'https://publisher.test/', purpose: 'search', xml: 'y'.repeat(700 * 1024) }),
  );
  const stream = new ReadableStream({
    start(c) {
      for (let i = 0; i < big.length; i += 16384) c.enqueue(big.slice(i, i + 16384));
      c.close();
    },
  });
  const res = await fetch(`${route.url}/v1/rights/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  t.is(res.status, 413);
  t.is(((await res.json()) as any).error.code, 'BODY_TOO_LARGE');
});

test('other methods on the path are not allowed', async (t) => {
  const res = await fetch(`${route.url}/v1/rights/inspect`);
  t.is(res.status, 405);
});
