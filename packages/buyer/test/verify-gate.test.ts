import test from 'ava';
import { verifyPaidReport } from '../src/verify-report.js';
import { envelopeSigner, nobleByteSigner, digestOf } from '@rights-preflight/wire/evidence/index.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { GATEWAY_VERSION, REPORT_PROFILE } from '@rights-preflight/wire/contract/common.js';

// A gate report names several resources and its binding resource is the gate URL, so what ties the
// report to what was paid is the question: verification recomputes input_sha256 from the report's own
// fields. These responses are consistently signed by a test key, so only that check can refuse them.

const signer = envelopeSigner(nobleByteSigner(new Uint8Array(32).fill(7)));
const GATE = 'https://rights.example/v1/rights/ingestion-gate';
const A = 'https://pub.example/a';
const B = 'https://pub.example/b';
const payer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const settlementBase = {
  network: 'eip155:8453',
  transaction: `0x${'ab'.repeat(32)}`,
  payer,
  amount: '80000',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  pay_to: '0x000000000000000000000000000000000000bEEF',
};

interface Variant {
  resources?: string[];
  geo?: string | null;
  tier?: 'fresh' | 'deep';
  freshness_seconds?: number;
  purpose?: 'ai-input' | 'search';
}

/** A signed gate response for the question {A, B, ai-input}, whose report claims `v` instead. */
function gateResponse(v: Variant = {}, reasons: unknown[] = []) {
  const asked = gateInput({ resources: [A, B], purpose: 'ai-input' });
  const nonce = boundNonce({ resource: GATE, key: 'key', input_sha256: asked.input_sha256 });
  const purchase_id = 'f'.repeat(64);
  const body = { ...asked.body, ...v };
  const report = {
    sku: GATE_SKU,
    profile: REPORT_PROFILE,
    legal_clearance: false,
    purchase_id,
    purpose: body.purpose,
    tier: body.tier,
    user_class: body.user_class,
    geo: body.geo,
    freshness_seconds: body.freshness_seconds,
    observed_at: '2026-11-22T10:00:00.000Z',
    resources: body.resources.map((resource) => ({
      resource,
      classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
      legal_clearance: false,
      declaration_found: true,
      reasons,
      checkpoint: null,
    })),
  };
  const evidence = signer.sign({
    type: 'evidence',
    sku: GATE_SKU,
    purchase_id,
    input_sha256: asked.input_sha256,
    legal_clearance: false,
    purpose: body.purpose,
    user_class: body.user_class,
    geo: body.geo,
    tier: body.tier,
    freshness_seconds: body.freshness_seconds,
    key_id: signer.keyId,
    resources: body.resources.map((resource) => ({
      resource,
      classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
      reading: {},
    })),
  });
  const proof = signer.sign({
    type: 'delivery-proof',
    purchase_id,
    input_sha256: asked.input_sha256,
    report_sha256: digestOf(report),
    evidence_sha256: digestOf(evidence),
    settlement: { ...settlementBase, nonce },
    delivered_at: '2026-11-22T10:00:01.000Z',
    key_id: signer.keyId,
  });
  return {
    response: {
      version: GATEWAY_VERSION,
      input_sha256: asked.input_sha256,
      legal_clearance: false,
      report,
      evidence,
      delivery_proof: proof,
      payment_settlement: { success: true, network: 'eip155:8453', transaction: settlementBase.transaction },
    },
    binding: { resource: GATE, input_sha256: asked.input_sha256, nonce },
  };
}

test('a consistent gate response verifies, with a decision derived for each entry', (t) => {
  const { response, binding } = gateResponse();
  const v = verifyPaidReport({ response, binding }, signer.publicKey);
  if (!v.ok) return t.fail(v.reason);
  t.deepEqual(
    v.classifications.map((c) => [c.resource, c.decision]),
    [
      [A, 'ALLOW_DECLARED'],
      [B, 'ALLOW_DECLARED'],
    ],
  );
});

for (const [what, variant] of [
  ['a resource dropped', { resources: [A] }],
  ['a resource swapped', { resources: [A, 'https://pub.example/c'] }],
  ['the resources reordered', { resources: [B, A] }],
  ['another purpose', { purpose: 'search' }],
  ['another tier', { tier: 'deep' }],
  ['another geo', { geo: 'DE' }],
  ['another freshness', { freshness_seconds: 0 }],
] as const) {
  test(`a signed gate report answering another question (${what}) is refused`, (t) => {
    const { response, binding } = gateResponse(variant as Variant);
    const v = verifyPaidReport({ response, binding }, signer.publicKey);
    t.deepEqual(v, {
      ok: false,
      reason: 'the gate report does not answer the paid question (input_sha256 recomputed from the report differs)',
    });
  });
}

// docs/wire.md §5 "Reasons": the service writes structured records; reports delivered before the
// 2026-11-24 profile revision carry the same records as JSON strings and stay valid evidence.
const reason = {
  rule: 'permitted-free',
  outcome: 'permitted',
  channel: 'robots',
  document_url: 'https://pub.example/license.xml',
  document_sha256: 'c'.repeat(64),
  content_url: '/',
  content_index: 0,
  license_index: 0,
  detail: 'ai-input is permitted free of charge',
};

test('structured reasons verify', (t) => {
  const { response, binding } = gateResponse({}, [reason]);
  const v = verifyPaidReport({ response, binding }, signer.publicKey);
  t.true(v.ok, v.ok ? '' : v.reason);
});

test('reasons as JSON strings (reports delivered before the revision) still verify', (t) => {
  const { response, binding } = gateResponse({}, [JSON.stringify(reason)]);
  const v = verifyPaidReport({ response, binding }, signer.publicKey);
  t.true(v.ok, v.ok ? '' : v.reason);
});

for (const [what, bad] of [
  ['a number', 42],
  ['a record missing its rule', (({ rule: _, ...rest }) => rest)(reason)],
  ['a record with an unknown channel', { ...reason, channel: 'dns' }],
] as const) {
  test(`a signed report whose reason is ${what} is refused as not a paid report`, (t) => {
    const { response, binding } = gateResponse({}, [bad]);
    const v = verifyPaidReport({ response, binding }, signer.publicKey);
    t.false(v.ok);
    if (!v.ok) t.regex(v.reason, /not a paid report/);
  });
}
