import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { buildOffer } from '../../src/money-path/offer.js';
import { buildDelivery } from '../../src/money-path/deliver.js';
import type { MoneyPathDeps } from '../../src/money-path/deps.js';
import type { PurchaseState, SettledState } from '../../streams/purchase/index.js';
import { singleReportProduct } from '../../src/products/single-report/product.js';
import { createSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { INPUT, PURCHASE_ID, quotedData } from '../streams/purchase/fixtures.js';
import {
  DeliveryProofPayload,
  EvidencePayload,
  OfferReceiptPayload,
  QuotePayload,
} from '@rights-preflight/wire/evidence/payloads.js';

// Contract between the payload codecs and the money path's builders: the envelopes the service
// actually produces (src/money-path/offer.ts, deliver.ts) decode with the published codecs and verify.

const key = evidenceKeyFromSeed(new Uint8Array(32).fill(5));
const NOW = new Date('2026-11-22T12:00:00.000Z');
const deps = {
  sign: createSigner(key),
  evidenceKeyId: key.keyId,
  baseUrl: 'https://rights.example',
  now: () => NOW,
  terms: {
    network: 'eip155:8453',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    payTo: '0x' + 'c2'.repeat(20),
    eip712: { name: 'USD Coin', version: '2' },
    maxTimeoutSeconds: 300,
  },
  products: { 'rights.preflight.v1': singleReportProduct },
} as unknown as MoneyPathDeps;

// The stream tests' Quoted (../streams/purchase/fixtures.ts), with the whole reading a report is drafted from.
const purchaseId = PURCHASE_ID;
const quoted = quotedData({
  reading: {
    version: 'rsl-reading-v1',
    resource: INPUT.resource,
    geo: null,
    observed_at: '2026-11-22T11:59:00.000Z',
    declaration_found: true,
    observations: [
      {
        channel: 'robots',
        url: 'https://publisher.example/license.xml',
        status: 200,
        sha256: 'd'.repeat(64),
        fetched_at: '2026-11-22T11:59:00.000Z',
      },
    ],
    purposes: [
      {
        purpose: 'ai-input',
        classification: 'PERMITTED_BY_OBSERVED_DECLARATION',
        decision: 'ALLOW_DECLARED',
        tokens: [{ token: 'ai-input', reasons: ['usage-permits'] }],
      },
    ],
  },
});

test('the offer receipt the money path signs decodes as OfferReceiptPayload and verifies', (t) => {
  const offer = buildOffer(deps, quoted as unknown as PurchaseState['quoted'] & object, {
    key: 'claim',
    source: 'x-service-claim',
  });
  t.true(verifyEnvelope(offer.offer_receipt, key.publicKeyHex));
  const r = OfferReceiptPayload.decode(offer.offer_receipt.payload);
  t.true(isRight(r));
  t.is(isRight(r) && r.right.nonce, offer.nonce);
});

test('evidence and delivery proof of a delivery decode with their codecs, verify, and bind each other', (t) => {
  const offered = buildOffer(deps, quoted as unknown as PurchaseState['quoted'] & object, {
    key: 'claim',
    source: 'x-service-claim',
  });
  const loaded = {
    quoted,
    offered,
    checkpoint: { payer: '0x' + 'b1'.repeat(20), nonce: offered.nonce, amount: '20000' },
    settled: {
      network: 'eip155:8453',
      transaction: '0x' + 'ab'.repeat(32),
      payer: '0x' + 'b1'.repeat(20),
      amount: '20000',
      block: '7',
    },
  } as unknown as SettledState;
  const { response } = buildDelivery(deps, loaded);
  t.true(verifyEnvelope(response.evidence, key.publicKeyHex));
  t.true(verifyEnvelope(response.delivery_proof, key.publicKeyHex));
  const evidence = EvidencePayload.decode(response.evidence.payload);
  const proof = DeliveryProofPayload.decode(response.delivery_proof.payload);
  if (!isRight(evidence) || !isRight(proof)) return t.fail('does not decode');
  t.false(evidence.right.legal_clearance);
  t.is(proof.right.report_sha256, digestOf(response.report));
  t.is(proof.right.evidence_sha256, digestOf(response.evidence));
  t.is(proof.right.settlement.transaction, response.payment_settlement.transaction);
});

test('payload kinds cannot be passed off as one another, and legal_clearance:true never decodes', (t) => {
  const offer = buildOffer(deps, quoted as unknown as PurchaseState['quoted'] & object, {
    key: 'claim',
    source: 'x-service-claim',
  });
  t.true(isLeft(DeliveryProofPayload.decode(offer.offer_receipt.payload)));
  t.true(isLeft(QuotePayload.decode(offer.offer_receipt.payload)));
  t.true(
    isLeft(
      EvidencePayload.decode({
        type: 'evidence',
        purchase_id: purchaseId,
        input_sha256: 'b'.repeat(64),
        legal_clearance: true,
        purpose: 'ai-input',
        user_class: 'commercial',
        geo: null,
        resources: [],
        key_id: key.keyId,
      }),
    ),
  );
});

test('a quote payload with the documented fields (docs/wire.md §2) decodes', (t) => {
  const payload = {
    type: 'quote',
    purchase_id: purchaseId,
    sku: 'rights.preflight.v1',
    resource: quoted.input.resource,
    purpose: 'ai-input',
    tier: 'fresh',
    user_class: 'commercial',
    input_sha256: quoted.input_sha256,
    decision_preview: { classification: 'UNKNOWN', decision: 'UNKNOWN' },
    amount: '20000',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    pay_to: '0x' + 'c2'.repeat(20),
    network: 'eip155:8453',
    issued_at: NOW.toISOString(),
    expires_at: quoted.expires_at,
    key_id: key.keyId,
  };
  t.true(isRight(QuotePayload.decode(payload)));
  t.true(isLeft(QuotePayload.decode({ ...payload, amount: '20000.0' })));
  t.true(isLeft(QuotePayload.decode({ ...payload, network: 'eip155:1' })));
});
