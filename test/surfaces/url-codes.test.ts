import test from 'ava';
import { GATE_PATH } from '../../src/http/wire/ingestion-gate.js';
import { post, surfacesWorld, type SurfacesWorld } from './support/world.js';
import { newKey } from './support/gate-buyer.js';

// One URL rule, one set of codes (spec §2.2): quote, preflight, the ingestion gate and the free
// inspection path answer 422 with the same specific RESOURCE_* code for the same URL, never the
// generic VALIDATION_FAILED.

let w: SurfacesWorld;
test.before(async () => { w = await surfacesWorld(); });
test.after.always(async () => { await w?.close(); });

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
      quote: await post(`${w.url}/v1/rights/quote`, { resource: url, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' }),
      preflight: await post(`${w.url}/v1/rights/preflight`, { resource: url, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' }, { 'x-service-request': newKey() }),
      gate: await post(`${w.url}${GATE_PATH}`, { resources: ['https://pub.example/articles/1', url], purpose: 'rag-ingestion', max_total_micro: '200000' }, { 'x-service-request': newKey() }),
      inspect: await post(`${w.url}/v1/rights/inspect`, { resource: url, purpose: 'ai-input', xml: '<rsl xmlns="https://rslstandard.org/rsl"/>' }),
    };
    for (const [route, a] of Object.entries(answers)) {
      t.is(a.status, 422, `${route} ${JSON.stringify(url)}: ${a.text}`);
      t.is(a.body?.error?.code, code, `${route} ${JSON.stringify(url)}: ${a.text}`);
    }
    t.is(answers.gate.body.error.details.field, 'resources.1');
  }
});
