import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { GATE_PATH } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { post } from '../support/post.js';
import { newKey } from './support/gate-buyer.js';
import { useFastWorld } from '../support/fast-world.js';

// One URL rule, one set of codes (spec §2.2): quote, preflight, the ingestion gate and the free
// inspection path answer 422 with the same specific RESOURCE_* code for the same URL, never the
// generic VALIDATION_FAILED.

const w = useFastWorld();

const CASES: Array<[string, string]> = [
  ['https://[::]/x', 'RESOURCE_IP_LITERAL'],
  ['https://pub.example\\articles\\1', 'RESOURCE_HAS_BACKSLASH'],
  ['https://pub.example/a\tb', 'RESOURCE_CONTROL_CHARACTER'],
  ['HTTPS://pub.example/articles/1', 'RESOURCE_NOT_CANONICAL'],
  ['https://pub\uff0eexample/articles/1', 'RESOURCE_HOST_NOT_PUNYCODE'],
  ['file:///etc/passwd', 'RESOURCE_NOT_HTTPS'],
  ['https://pub.example/articles/1?x', 'RESOURCE_HAS_QUERY'],
  ['https://127.1/', 'RESOURCE_IP_LITERAL'],
  ['https://pub.example/a/%2e%2e/b', 'RESOURCE_DOT_SEGMENT'],
];

test('quote, preflight, gate and inspect give the same RESOURCE_* code for each URL', async (t) => {
  for (const [url, code] of CASES) {
    const answers = {
      quote: await post(`${w.url}/v1/rights/quote`, {
        resource: url,
        purpose: 'ai-input',
        tier: 'fresh',
        max_total_micro: '20000',
      }),
      preflight: await post(
        `${w.url}/v1/rights/preflight`,
        { resource: url, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
        { 'x-service-request': newKey() },
      ),
      gate: await post(
        `${w.url}${GATE_PATH}`,
        { resources: ['https://pub.example/articles/1', url], purpose: 'rag-ingestion', max_total_micro: '200000' },
        { 'x-service-request': newKey() },
      ),
      inspect: await post(`${w.url}/v1/rights/inspect`, {
        resource: url,
        purpose: 'ai-input',
        xml: '<rsl xmlns="https://rslstandard.org/rsl"/>',
      }),
    };
    for (const [route, a] of Object.entries(answers)) {
      t.is(a.status, 422, `${route} ${JSON.stringify(url)}: ${a.text}`);
      t.is(a.body?.error?.code, code, `${route} ${JSON.stringify(url)}: ${a.text}`);
    }
    t.is(answers.gate.body.error.details.field, 'resources.1');
  }
});

// Spec §7 "no verifiable declaration" vs. "we could not look": both charge nothing, but a buyer
// must be able to tell them apart. FETCH_FAILED names each channel that could not be read.
test(
  'a resource that cannot be read answers available:false FETCH_FAILED with details, ' + 'charging nothing',
  async (t) => {
    const body = {
      resource: 'https://bare.example/down',
      purpose: 'ai-input',
      tier: 'fresh',
      max_total_micro: '20000',
    };
    for (const [route, res] of [
      ['quote', await post(`${w.url}/v1/rights/quote`, body)],
      ['preflight', await post(`${w.url}/v1/rights/preflight`, body, { 'x-service-request': newKey() })],
    ] as const) {
      t.is(res.status, 200, `${route}: ${res.text}`);
      t.true(isRight(UnavailableQuote.decode(res.body)), `${route}: ${res.text}`);
      t.is(res.body.available, false);
      t.is(res.body.reason, 'FETCH_FAILED');
      t.is(res.body.charge_micro, '0');
      t.deepEqual(res.body.details.failures, [
        { channel: 'resource', url: 'https://bare.example/down', kind: 'http-status', code: 'HTTP_503', status: 503 },
      ]);
    }
    const none = await post(`${w.url}/v1/rights/quote`, { ...body, resource: 'https://bare.example/page' });
    t.is(none.body.reason, 'NO_VERIFIABLE_DECLARATION');
    t.is(none.body.details, undefined);
  },
);

test('capabilities publish the per-address rate limits the service applies', async (t) => {
  const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as any;
  // The test worlds configure them (ops/world/local-rate-limits.ts); capabilities must echo the configuration.
  const limit = (path: string, mcp_tools: string[] = []) => ({
    method: 'POST',
    path,
    requests_per_minute: 100000,
    burst: 10000,
    mcp_tools,
  });
  t.deepEqual(caps.rate_limits, {
    inspect: limit('/v1/rights/inspect'),
    quote: limit('/v1/rights/quote', ['service_rights_quote']),
    preflight: limit('/v1/rights/preflight'),
    gate: limit('/v1/rights/ingestion-gate'),
    revalidate: limit('/v1/rights/revalidate'), // its own bucket at the gate's rate
    mcp: limit('/mcp', ['service_capabilities', 'service_rights_quote', 'service_quote']),
  });
});
