import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type * as t from 'io-ts';
import { PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import { IngestionGateRequest } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { jsonSchemaOf } from '@rights-preflight/wire/contract/json-schema.js';
import { post } from '../support/post.js';
import { ARTICLE } from '../support/publishers.js';
import { useFastWorld } from '../support/fast-world.js';

// The published schemas are generated from the codecs; this proves they agree on a set of samples,
// and that the route's verdict follows (a schema-valid body passes the body rules and reaches the
// header check; a schema-invalid one is refused 400/422 before anything else).

const w = useFastWorld();

const ajv = () => {
  const a = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
  (addFormats as unknown as typeof addFormats.default)(a);
  return a;
};

const preflightSamples: unknown[] = [
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
  { resource: ARTICLE(1), purpose: 'search', tier: 'deep', max_total_micro: '100000000000', user_class: 'education' },
  { resource: ARTICLE(1), purpose: 'ai-train', tier: 'fresh', max_total_micro: '0' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000', extra: 1 },
  { resource: ARTICLE(1), purpose: 'crawl', tier: 'fresh', max_total_micro: '20000' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'premium', max_total_micro: '20000' },
  { resource: ARTICLE(1), purpose: 'ai-input', max_total_micro: '20000' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '01' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '1e3' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '100000000001' },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: 20000 },
  { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000', user_class: 'enterprise' },
  { resource: 'http://pub.example/articles/1', purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
  { resource: `${ARTICLE(1)}/${'a'.repeat(2048)}`, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
  { resource: 'https://pub.example/with space', purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
  { resource: 42, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
  [],
  'text',
  null,
];

const gateSamples: unknown[] = [
  { resources: [ARTICLE(1)], purpose: 'rag-ingestion', max_total_micro: '60000' },
  {
    resources: [1, 2, 3, 4].map(ARTICLE),
    purpose: 'training',
    max_total_micro: '220000',
    tier: 'deep',
    geo: 'DE',
    freshness_seconds: 0,
    user_class: 'personal',
  },
  { resources: [ARTICLE(1)], purpose: 'search', max_total_micro: '60000', geo: null, freshness_seconds: 3600 },
  { resources: [], purpose: 'search', max_total_micro: '60000' },
  { resources: [1, 2, 3, 4, 5].map(ARTICLE), purpose: 'search', max_total_micro: '60000' },
  { resources: [ARTICLE(1)], purpose: 'search', max_total_micro: '60000', geo: 'usa' },
  { resources: [ARTICLE(1)], purpose: 'search', max_total_micro: '60000', freshness_seconds: 3601 },
  { resources: [ARTICLE(1)], purpose: 'search', max_total_micro: '60000', freshness_seconds: 2.5 },
  { resources: [ARTICLE(1)], purpose: 'crawl', max_total_micro: '60000' },
  { resources: [ARTICLE(1)], purpose: 'search', max_total_micro: '60000', more: true },
  { resources: ARTICLE(1), purpose: 'search', max_total_micro: '60000' },
];

function agree(t: import('ava').ExecutionContext, codec: t.Mixed, samples: unknown[]) {
  const validate = ajv().compile(jsonSchemaOf(codec));
  const verdicts = samples.map((s) => {
    const byCodec = isRight(codec.decode(s));
    const bySchema = validate(s) as boolean;
    t.is(bySchema, byCodec, `schema and codec disagree on ${JSON.stringify(s).slice(0, 120)}`);
    return byCodec;
  });
  t.true(verdicts.some(Boolean) && verdicts.some((v) => !v), 'the samples contain valid and invalid bodies');
  return verdicts;
}

test(
  'GET /v1/rights/preflight serves the request schema ($schema 2020-12), ' + "generated from the route's codec",
  async (t) => {
    const res = await fetch(`${w.url}/v1/rights/preflight`);
    t.is(res.status, 200);
    const schema = (await res.json()) as Record<string, unknown>;
    t.is(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    const { $schema: _s, description: _d, ...rest } = schema;
    t.deepEqual(rest, jsonSchemaOf(PreflightRequest));
    t.false(schema.additionalProperties as boolean);
    t.deepEqual(schema.required, ['resource', 'purpose', 'tier', 'max_total_micro']);
    t.is((schema.properties as any).max_total_micro.pattern, '^(0|[1-9][0-9]{0,10}|100000000000)$');
    t.is((schema.properties as any).resource.maxLength, 2048);
  },
);

test(
  'preflight: ajv on the served schema, ' + 'the codec and the route give the same verdict for every sample',
  async (t) => {
    const served = (await (await fetch(`${w.url}/v1/rights/preflight`)).json()) as Record<string, unknown>;
    const validateServed = ajv().compile(served);
    const verdicts = agree(t, PreflightRequest, preflightSamples);
    for (const [i, sample] of preflightSamples.entries()) {
      t.is(validateServed(sample) as boolean, verdicts[i]!);
      // No X-Service-Request: a body that passes the contract reaches the key check (428); others
      // are refused as bodies.
      const res = await post(`${w.url}/v1/rights/preflight`, sample);
      if (verdicts[i]) t.is(res.status, 428, `${JSON.stringify(sample)} → ${res.text}`);
      else t.true(res.status === 400 || res.status === 422, `${JSON.stringify(sample).slice(0, 80)} → ${res.status}`);
    }
  },
);

test('ingestion gate: schema and codec agree on every sample (field rules of spec §2.3)', (t) => {
  agree(t, IngestionGateRequest, gateSamples);
  const schema = jsonSchemaOf(IngestionGateRequest) as any;
  t.deepEqual([schema.properties.resources.minItems, schema.properties.resources.maxItems], [1, 4]);
  t.deepEqual(
    [
      schema.properties.freshness_seconds.minimum,
      schema.properties.freshness_seconds.maximum,
      schema.properties.freshness_seconds.default,
    ],
    [0, 3600, 300],
  );
  t.is(schema.properties.user_class.default, 'commercial');
  t.is(schema.properties.tier.default, 'fresh');
});

test(
  'GET /openapi.json: OpenAPI 3.1 of every endpoint, ' +
    'schemas from the codecs, headers and the error shape documented',
  async (t) => {
    const doc = (await (await fetch(`${w.url}/openapi.json`)).json()) as any;
    t.is(doc.openapi, '3.1.0');
    t.deepEqual(Object.keys(doc.paths).sort(), [
      '/',
      '/healthz',
      '/mcp',
      '/openapi.json',
      '/readyz',
      '/v1/capabilities',
      '/v1/rights/ingestion-gate',
      '/v1/rights/inspect',
      '/v1/rights/preflight',
      '/v1/rights/quote',
      '/v1/rights/refund-requests',
      '/v1/rights/refund-requests/{purchase_id}',
      '/v1/rights/reports/{id}',
      '/v1/rights/revalidate',
    ]);
    t.truthy(doc.paths['/v1/rights/preflight'].get && doc.paths['/v1/rights/preflight'].post);
    t.deepEqual(doc.components.schemas.IngestionGateRequest, jsonSchemaOf(IngestionGateRequest));
    t.deepEqual(doc.components.schemas.PreflightRequest, jsonSchemaOf(PreflightRequest));
    const names = JSON.stringify(doc)
      .match(/"name":"[A-Za-z-]+","in":"header"/g)!
      .map((s) => s.split('"')[3]);
    for (const h of [
      'X-Service-Claim',
      'X-Service-Request',
      'PAYMENT-SIGNATURE',
      'X-Service-Payment-Intent',
      'SIGN-IN-WITH-X',
    ])
      t.true(names.includes(h), h);
    for (const h of ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE']) t.truthy(doc.components.headers[h]);
    t.deepEqual(doc.components.schemas.ErrorBody.required, ['error']);
    // Every component schema compiles as JSON Schema 2020-12 (the OpenAPI 3.1 dialect).
    const a = ajv();
    for (const [name, s] of Object.entries(doc.components.schemas)) t.notThrows(() => a.compile(s as object), name);
    // And the documented response schemas accept what the service really answers.
    const caps = await (await fetch(`${w.url}/v1/capabilities`)).json();
    t.true(a.compile(doc.components.schemas.Capabilities)(caps) as boolean);
    const discovery = await post(`${w.url}/v1/rights/preflight`, undefined);
    t.true(a.compile(doc.components.schemas.PreflightDiscovery)(discovery.body) as boolean);
  },
);
