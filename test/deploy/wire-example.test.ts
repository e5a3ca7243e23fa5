import test from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatSIWEMessage } from '@x402/extensions/sign-in-with-x';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { siwxChallenge, SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { paymentIntentHeader } from '@rights-preflight/buyer';
import { boundNonce, inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { purchaseId } from '../../streams/purchase/purchase-id.js';
import { GATE_PATH } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { useFastWorld } from '../support/fast-world.js';

// docs/wire.md §11's worked example must be right: each value is recomputed twice, by a reader's plain
// sha256 over the JCS text the document prints, and by the service's own code from the example inputs.

// The examples are posted to the service's public app as composed (test/README.md, Worlds): no chain is
// asked before a gate request has its key, nor by the free inspection.
const world = useFastWorld();

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = readFileSync(path.join(ROOT, 'docs/wire.md'), 'utf8');
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const block = doc.slice(doc.indexOf('<!-- worked-example')).split('```')[1]!;
const line = (name: string) => new RegExp(`^${name}\\s+(.+)$`, 'm').exec(block)?.[1]?.trim() ?? '';

const GATE_URL = 'https://preflight.example/v1/rights/ingestion-gate';
const KEY = 'example-service-request-key-0001';
const PAYER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;

test('a reader recomputes each digest from the JCS text the document prints', (t) => {
  t.is(sha(line('descriptor JCS')), line('input_sha256'));
  t.is(sha(KEY), line('key_sha256'));
  t.is(
    sha(
      canonicalJson({
        sku: 'rights.ingestion-gate.v1',
        key_sha256: line('key_sha256'),
        input_sha256: line('input_sha256'),
      }),
    ),
    line('purchase_id'),
  );
  t.is(`0x6163717075627631${sha(line('nonce JCS')).slice(0, 48)}`, line('bound nonce'));
});

test('the service computes the same values from the example request', (t) => {
  const g = gateInput({
    resources: ['https://pub.example/articles/one', 'https://pub.example/articles/one'],
    purpose: 'rag-ingestion',
  });
  t.is(canonicalJson(g.descriptor), line('descriptor JCS'));
  t.is(g.input_sha256, line('input_sha256'));
  t.is(purchaseId({ sku: g.sku, key_sha256: sha(KEY), input_sha256: g.input_sha256 }), line('purchase_id'));
  t.is(boundNonce({ resource: GATE_URL, key: KEY, input_sha256: g.input_sha256 }) as string, line('bound nonce'));
  t.is(String(g.price_micro), line('price_micro'));
  const intent = Buffer.from(
    paymentIntentHeader({ payer: PAYER, resource: GATE_URL, input_sha256: g.input_sha256, network: 'eip155:8453' }),
    'base64',
  ).toString('utf8');
  t.true(doc.includes(`\`${intent}\``), 'the intent JSON as printed');
  const challenge = siwxChallenge(
    { gateUrl: GATE_URL, key: KEY, inputSha256: g.input_sha256, network: 'eip155:8453' },
    '2026-11-24T12:00:00.000Z',
  );
  const message = formatSIWEMessage({ ...challenge, address: PAYER } as Parameters<typeof formatSIWEMessage>[0], PAYER);
  t.true(doc.includes(`\`\`\`\n${message}\n\`\`\``), 'the sign-in message as printed');
  t.true(doc.includes(SIWX_STATEMENT));
  const single = {
    sku: 'rights.preflight.v1',
    resource: 'https://pub.example/articles/one',
    purpose: 'ai-input',
    tier: 'fresh',
    user_class: 'commercial',
  };
  t.true(doc.includes(`\`${canonicalJson(single)}\``) && doc.includes(inputSha256(single)));
});

/** The one-line JSON right after an `<!-- NAME ... -->` marker (inline code or a ```json block). */
function documentedBody(marker: string): string {
  const after = doc.slice(doc.indexOf(`<!-- ${marker}`));
  const text = /-->\s*(?:```json\s*\n([^\n]+)\n```|`([^`\n]+)`)/.exec(after);
  if (!text) throw new Error(`no body after <!-- ${marker}`);
  return (text[1] ?? text[2])!;
}

test('§11 example gate body, posted to a running service, is accepted as shown (428: no key; no 400)', async (t) => {
  const body = documentedBody('gate-example-body');
  t.regex(body, /"max_total_micro"/);
  const res = await fetch(`${world.url}${GATE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { error?: { code: string } };
  t.not(res.status, 400, JSON.stringify(answer));
  // The body is decoded before any header is looked at: what is missing now is the buyer's key.
  t.is(res.status, 428);
  t.is(answer.error?.code, 'SERVICE_REQUEST_REQUIRED');
});

test('§13 example inspect body is answered 200 with a reading', async (t) => {
  const res = await fetch(`${world.url}/v1/rights/inspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: documentedBody('inspect-example-body'),
  });
  const answer = (await res.json()) as { classification: string; fetched: boolean };
  t.is(res.status, 200, JSON.stringify(answer));
  t.is(answer.classification, 'PERMITTED_BY_OBSERVED_DECLARATION');
  t.false(answer.fetched);
});
