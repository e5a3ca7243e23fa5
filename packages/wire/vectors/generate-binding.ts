// `npx tsx packages/wire/vectors/generate-binding.ts > packages/wire/vectors/binding.json`: generates the
// vectors, independently of packages/wire/src/payment/binding.ts (node:crypto + the canonicalize package),
// so the vectors are not merely the implementation's own output.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
const jcs = (v: unknown) => (canonicalize as unknown as (v: unknown) => string)(v);
const h = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const inputs = [
  {
    sku: 'rights.preflight.v1',
    resource: 'https://pub.example/articles/one',
    purpose: 'ai-input',
    tier: 'fresh',
    user_class: 'commercial',
  },
  {
    sku: 'rights.preflight.v1',
    resource: 'https://pub.example/articles/one',
    purpose: 'ai-train',
    tier: 'deep',
    user_class: 'commercial',
  },
  {
    user_class: 'education',
    tier: 'fresh',
    purpose: 'search',
    resource: 'https://xn--bcher-kva.example/caf%C3%A9',
    sku: 'rights.preflight.v1',
  },
  {
    sku: 'rights.gate.v1',
    resources: ['https://a.example/x', 'https://b.example/y'],
    purpose: 'rag-ingestion',
    note: 'ünïcödé €',
    n: 1e21,
    f: 0.5,
  },
];
const cases = [
  {
    name: 'quote flow, claim token as key',
    resource: 'https://pub.example/articles/one',
    key: 'a'.repeat(64),
    normalized_input: inputs[0],
  },
  {
    name: 'same resource, other purpose and tier',
    resource: 'https://pub.example/articles/one',
    key: 'a'.repeat(64),
    normalized_input: inputs[1],
  },
  {
    name: 'same input, other key',
    resource: 'https://pub.example/articles/one',
    key: '0f'.repeat(32),
    normalized_input: inputs[0],
  },
  {
    name: 'input keys in another order, punycode host, percent-escapes',
    resource: 'https://xn--bcher-kva.example/caf%C3%A9',
    key: 'req_7d0c2b5a-4e8f-4c11-9b52-0a6b1c2d3e4f',
    normalized_input: inputs[2],
  },
  {
    name: 'ingestion gate: endpoint URL as resource, list inside the input',
    resource: 'https://rights.example/v1/ingestion-gate',
    key: 'X-Service-Request: ä/€ key',
    normalized_input: inputs[3],
  },
];
const out = {
  description:
    'Request binding (spec §5.4): nonce = "0x6163717075627631" + first 48 hex of ' +
    'sha256(JCS({version:"service-request-v1", resource, key, input_sha256})); ' +
    'input_sha256 = sha256 hex of JCS(normalized_input). JCS = RFC 8785; sha256 over UTF-8.',
  version: 'service-request-v1',
  prefix: '0x6163717075627631',
  vectors: cases.map((c) => {
    const input_sha256 = h(jcs(c.normalized_input));
    const binding_jcs = jcs({ version: 'service-request-v1', resource: c.resource, key: c.key, input_sha256 });
    return {
      ...c,
      normalized_input_jcs: jcs(c.normalized_input),
      input_sha256,
      binding_jcs,
      nonce: `0x6163717075627631${h(binding_jcs).slice(0, 48)}`,
    };
  }),
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
