import test from 'ava';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { checkPaymentIntent } from '../../src/products/ingestion-gate/intent.js';
import { verifySiwxHeader } from '../../src/products/ingestion-gate/siwx.js';
import { paymentFromHeader } from '../../src/money-path/payment-signature.js';

// The base64 JSON headers the service reads pass the same plain-JSON guard as the bodies
// (packages/wire/src/contract/plain-json.ts; docs/wire.md §10): a member `1e999`, a lone surrogate or
// nesting 3,000 deep is the header's MALFORMED code, before anything is formatted, verified or digested.

const SHAPES: Record<string, string> = {
  'a number 1e999': '1e999',
  'a lone surrogate': '"\\ud800"',
  'nesting 3000 deep': `${'['.repeat(3000)}${']'.repeat(3000)}`,
};
const b64 = (json: string) => Buffer.from(json, 'utf8').toString('base64');
const ADDRESS = '0x1111111111111111111111111111111111111111';

test('SIGN-IN-WITH-X: a proof holding any of the three is SIWX_MALFORMED, not checked further', async (t) => {
  const proof = JSON.stringify({
    domain: 'service.example',
    address: ADDRESS,
    uri: 'https://service.example/v1/rights/ingestion-gate',
    version: '1',
    chainId: 'eip155:8453',
    type: 'eip191',
    nonce: 'a'.repeat(48),
    issuedAt: new Date().toISOString(),
    signature: '0x00',
  });
  const binding = {
    gateUrl: 'https://service.example/v1/rights/ingestion-gate',
    key: 'k'.repeat(32),
    inputSha256: 'a'.repeat(64),
    network: 'eip155:8453',
  };
  for (const [name, value] of Object.entries(SHAPES)) {
    const check = await verifySiwxHeader(b64(`${proof.slice(0, -1)},"requestId":${value}}`), binding, new Date());
    t.like(check, { ok: false, code: 'SIWX_MALFORMED' }, name);
  }
});

test('X-Service-Payment-Intent and PAYMENT-SIGNATURE: any of the three is the header’s MALFORMED code', (t) => {
  const intent = JSON.stringify({
    version: 'x',
    payer: ADDRESS,
    resource: 'r',
    input_sha256: 'a'.repeat(64),
    network: 'eip155:8453',
  });
  for (const [name, value] of Object.entries(SHAPES)) {
    const header = b64(`${intent.slice(0, -1)},"x":${value}}`);
    const intentRefusal = t.throws(() => checkPaymentIntent(header, { gateUrl: 'g', inputSha256: 'a', network: 'n' }));
    t.true(intentRefusal instanceof Refusal && intentRefusal.code === 'PAYMENT_INTENT_MALFORMED', name);
    t.regex(intentRefusal!.message, /plain JSON/, name);
    const paymentRefusal = t.throws(() => paymentFromHeader(b64(`{"x402Version":2,"x":${value}}`)));
    t.true(paymentRefusal instanceof Refusal && paymentRefusal.code === 'PAYMENT_SIGNATURE_MALFORMED', name);
  }
});
