import test from 'ava';
import { createHash } from 'node:crypto';
import { isRight } from 'fp-ts/lib/Either.js';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { IngestionGateResponse, IngestionGateUnavailable } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';
import { streamName, purchaseId } from '../../streams/purchase/purchase-id.js';
import { signPayment } from '../support/pay.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { post } from '../support/post.js';
import { ARTICLE, BARE } from '../support/publishers.js';
import { gateHeaders, gateInputSha256, intentHeader, newKey, siwxHeader } from './support/gate-buyer.js';
import { useWorld } from '../support/world.js';

let gate: string;
let covered: string[];
const secrets: { claims: string[]; paymentHeaders: string[] } = { claims: [], paymentHeaders: [] };
const w = useWorld();
test.before(async () => {
  gate = `${w.url}/v1/rights/ingestion-gate`;
  covered = w.origins.origins;
});

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const digest = (v: unknown) => createHash('sha256').update(canonicalJson(v), 'utf8').digest('hex');
const buyerA = () => w.devnet.buyers[0]!;
const buyerB = () => w.devnet.buyers[1]!;

async function offerFor(body: Record<string, unknown>, key: string, payerKey = buyerA().privateKey) {
  const headers = await gateHeaders({ url: w.url, body, key, payerKey, coveredOrigins: covered });
  const res = await post(gate, body, headers);
  secrets.claims.push(key, headers['x-service-payment-intent']!, headers['sign-in-with-x']!);
  return { res, headers };
}

async function buy(body: Record<string, unknown>, key = newKey()) {
  const { res: offer, headers } = await offerFor(body, key);
  if (offer.status !== 402) throw new Error(`expected 402, got ${offer.status}: ${offer.text}`);
  const prHeader = offer.headers.get('payment-required')!;
  const payment = await signPayment(buyerA().privateKey, prHeader);
  secrets.paymentHeaders.push(payment);
  const paid = await post(gate, body, { ...headers, 'payment-signature': payment });
  return { offer, prHeader, payment, paid, headers, key };
}

test.serial(
  'one URL: 402 offer with the gate price and a nonce bound to the gate URL, then the §2.4 response after payment',
  async (t) => {
    const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as any;
    const evidenceKey = caps.evidence.keys[0].public_key as string;
    t.true(caps.products.find((p: any) => p.sku === 'rights.ingestion-gate.v1').enabled);
    const body = { resources: [ARTICLE(1)], purpose: 'rag-ingestion', max_total_micro: '60000' };
    const a = buyerA();
    const [buyerBefore, payToBefore] = [await w.devnet.balanceOf(a.address), await w.devnet.balanceOf(w.devnet.payTo)];
    const { offer, prHeader, paid, key } = await buy(body);

    t.is(offer.status, 402);
    t.true(isRight(PaymentRequiredBody.decode(offer.body)), offer.text);
    const pr = decodePaymentRequiredHeader(prHeader);
    t.is(pr.accepts[0]!.amount, '60000'); // fresh: 40,000 + 20,000 × 1
    const inputSha = gateInputSha256(body, covered);
    const binding = (pr.extensions as any)['service-request-binding'].info;
    t.is(binding.key_source, 'x-service-request');
    t.is(binding.input_sha256, inputSha);
    t.is(binding.resource, gate);
    t.is(binding.nonce, boundNonce({ resource: gate, key, input_sha256: inputSha }));

    t.is(paid.status, 200, paid.text);
    t.true(isRight(IngestionGateResponse.decode(paid.body)), paid.text);
    const r = paid.body;
    t.is(r.version, 'service-public-gateway-v1');
    t.is(r.input_sha256, inputSha);
    t.false(r.legal_clearance);
    t.is(r.report.sku, 'rights.ingestion-gate.v1');
    t.is(r.report.profile, 'service-observed-policy-v1');
    t.is(r.report.purpose, 'rag-ingestion');
    t.is(r.report.user_class, 'commercial'); // default applied
    t.is(r.report.freshness_seconds, 300);
    t.is(r.report.tier, 'fresh');
    t.deepEqual(
      r.report.resources.map((e: any) => [e.resource, e.classification, e.legal_clearance]),
      [[ARTICLE(1), 'PERMITTED_BY_OBSERVED_DECLARATION', false]],
    );
    t.is(
      r.report.purchase_id,
      purchaseId({ sku: 'rights.ingestion-gate.v1', key_sha256: sha(key), input_sha256: inputSha }),
    );
    t.true(await verifyEnvelope(r.evidence, evidenceKey));
    t.true(await verifyEnvelope(r.delivery_proof, evidenceKey));
    t.is(r.delivery_proof.payload.report_sha256, digest(r.report));
    t.is(r.delivery_proof.payload.evidence_sha256, digest(r.evidence));
    t.is(r.delivery_proof.payload.settlement.nonce, binding.nonce);
    t.is(r.evidence.payload.input_sha256, inputSha);
    t.is(r.evidence.payload.resources[0].reading.resource, ARTICLE(1));
    const settle = decodePaymentResponseHeader(paid.headers.get('payment-response')!);
    t.is(settle.transaction, r.payment_settlement.transaction);
    t.is(settle.payer, privateKeyToAccount(a.privateKey).address);
    t.is(await w.devnet.balanceOf(a.address), buyerBefore - 60_000n);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore + 60_000n);
  },
);

test.serial(
  'four URLs (deep): one entry per resource in request order, price 60,000 + 40,000 × 4, paid exactly once',
  async (t) => {
    const body = {
      resources: [ARTICLE(2), ARTICLE(3), BARE, ARTICLE(4)],
      purpose: 'ai-train',
      tier: 'deep',
      max_total_micro: '220000',
      geo: 'DE',
      user_class: 'education',
      freshness_seconds: 0,
    };
    const a = buyerA();
    const before = await w.devnet.balanceOf(a.address);
    const { prHeader, paid } = await buy(body);
    t.is(decodePaymentRequiredHeader(prHeader).accepts[0]!.amount, '220000');
    t.is(paid.status, 200, paid.text);
    t.deepEqual(
      paid.body.report.resources.map((e: any) => [e.resource, e.classification]),
      [
        [ARTICLE(2), 'PROHIBITED_BY_OBSERVED_DECLARATION'],
        [ARTICLE(3), 'PROHIBITED_BY_OBSERVED_DECLARATION'],
        [BARE, 'NO_MACHINE_READABLE_DECLARATION'],
        [ARTICLE(4), 'PROHIBITED_BY_OBSERVED_DECLARATION'],
      ],
    );
    t.is(paid.body.report.geo, 'DE');
    t.is(paid.body.report.user_class, 'education');
    t.is(await w.devnet.balanceOf(a.address), before - 220_000n);
  },
);

test.serial('a duplicated URL is priced and reported once, and the normalized input is what is bound', async (t) => {
  const body = {
    resources: [ARTICLE(1), ARTICLE(5), ARTICLE(1), ARTICLE(5)],
    purpose: 'search',
    max_total_micro: '80000',
  };
  const same = {
    resources: [ARTICLE(1), ARTICLE(5)],
    purpose: 'search',
    max_total_micro: '90000',
    tier: 'fresh',
    user_class: 'commercial',
    freshness_seconds: 300,
    geo: null,
  };
  t.is(gateInputSha256(body, covered), gateInputSha256(same, covered)); // defaults and dedup before the digest
  const { prHeader, paid } = await buy(body);
  t.is(decodePaymentRequiredHeader(prHeader).accepts[0]!.amount, '80000'); // 40,000 + 20,000 × 2
  t.is(paid.status, 200, paid.text);
  t.deepEqual(
    paid.body.report.resources.map((e: any) => e.resource),
    [ARTICLE(1), ARTICLE(5)],
  );
});

test.serial('budget: a price above max_total_micro is refused before anything is fetched or stored', async (t) => {
  // price 140,000
  const body = { resources: [ARTICLE(1), ARTICLE(2)], purpose: 'ai-input', tier: 'deep', max_total_micro: '139999' };
  const key = newKey();
  const fetched = w.origins.requests.length;
  const { res } = await offerFor(body, key);
  t.is(res.status, 422);
  t.is(res.body.error.code, 'PRICE_EXCEEDS_BUDGET');
  t.is(res.body.error.details.charge_micro, '140000');
  t.is(w.origins.requests.length, fetched);
  const id = purchaseId({
    sku: 'rights.ingestion-gate.v1',
    key_sha256: sha(key),
    input_sha256: gateInputSha256(body, covered),
  });
  t.deepEqual(await w.service.store.readStream(streamName(id)), []);
  const exact = await offerFor({ ...body, max_total_micro: '140000' }, newKey());
  t.is(exact.res.status, 402, 'a budget equal to the price is enough');
});

test.serial(
  'a payment whose from is not the signed-in payer is refused uncharged; the right wallet then pays once',
  async (t) => {
    const body = { resources: [ARTICLE(3)], purpose: 'ai-index', max_total_micro: '60000' };
    const key = newKey();
    const { res: offer, headers } = await offerFor(body, key);
    t.is(offer.status, 402);
    const prHeader = offer.headers.get('payment-required')!;
    const [aBefore, bBefore, payBefore] = [
      await w.devnet.balanceOf(buyerA().address),
      await w.devnet.balanceOf(buyerB().address),
      await w.devnet.balanceOf(w.devnet.payTo),
    ];
    const wrong = await signPayment(buyerB().privateKey, prHeader); // B's own valid authorization, bound nonce
    secrets.paymentHeaders.push(wrong);
    const refused = await post(gate, body, { ...headers, 'payment-signature': wrong });
    t.is(refused.status, 402);
    t.is(refused.body.error.code, 'PAYMENT_FROM_NOT_SIGNER');
    t.is(decodePaymentRequiredHeader(refused.headers.get('payment-required')!).error, 'PAYMENT_FROM_NOT_SIGNER');
    t.is(await w.devnet.balanceOf(buyerA().address), aBefore);
    t.is(await w.devnet.balanceOf(buyerB().address), bBefore);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payBefore);
    const events = await w.service.store.readStream(
      streamName(
        purchaseId({
          sku: 'rights.ingestion-gate.v1',
          key_sha256: sha(key),
          input_sha256: gateInputSha256(body, covered),
        }),
      ),
    );
    t.deepEqual(
      events.map((e) => e.type),
      ['Quoted', 'Offered'],
    );

    const right = await signPayment(buyerA().privateKey, prHeader);
    secrets.paymentHeaders.push(right);
    const paid = await post(gate, body, { ...headers, 'payment-signature': right });
    t.is(paid.status, 200, paid.text);
    t.is(await w.devnet.balanceOf(buyerB().address), bBefore);
    t.is(await w.devnet.balanceOf(buyerA().address), aBefore - 60_000n);
  },
);

test.serial(
  "a sign-in proof by another wallet than the intent's payer is refused before anything is stored",
  async (t) => {
    const body = { resources: [ARTICLE(4)], purpose: 'search', max_total_micro: '60000' };
    const key = newKey();
    const headers = await gateHeaders({
      url: w.url,
      body,
      key,
      payerKey: buyerA().privateKey,
      coveredOrigins: covered,
    });
    const other = await siwxHeader({
      signerKey: buyerB().privateKey,
      gateUrl: gate,
      key,
      inputSha256: gateInputSha256(body, covered),
    });
    const fetched = w.origins.requests.length;
    const res = await post(gate, body, { ...headers, 'sign-in-with-x': other });
    t.is(res.status, 403);
    t.is(res.body.error.code, 'SIWX_SIGNER_NOT_PAYER');
    t.is(w.origins.requests.length, fetched);
  },
);

test.serial(
  'the sign-in proof binds the key and input: a proof for another key, a stale proof and a wrong intent are refused',
  async (t) => {
    const body = { resources: [ARTICLE(4)], purpose: 'ai-input', max_total_micro: '60000' };
    const key = newKey();
    const headers = await gateHeaders({
      url: w.url,
      body,
      key,
      payerKey: buyerA().privateKey,
      coveredOrigins: covered,
    });
    const input = gateInputSha256(body, covered);
    const otherKey = await siwxHeader({
      signerKey: buyerA().privateKey,
      gateUrl: gate,
      key: newKey(),
      inputSha256: input,
    });
    const r1 = await post(gate, body, { ...headers, 'sign-in-with-x': otherKey });
    t.is(r1.status, 401);
    t.is(r1.body.error.details.reason, 'nonce_mismatch');
    const stale = await siwxHeader({
      signerKey: buyerA().privateKey,
      gateUrl: gate,
      key,
      inputSha256: input,
      issuedAt: new Date(Date.now() - 3600_000).toISOString(),
    });
    const r2 = await post(gate, body, { ...headers, 'sign-in-with-x': stale });
    t.is(r2.body.error.details.reason, 'issued_at_too_old');
    const badIntent = intentHeader({ payer: buyerA().address, resource: gate, input_sha256: 'f'.repeat(64) });
    const r3 = await post(gate, body, { ...headers, 'x-service-payment-intent': badIntent });
    t.is(r3.status, 422);
    t.is(r3.body.error.code, 'PAYMENT_INTENT_MISMATCH');
    const { 'sign-in-with-x': _s, ...noSiwx } = headers;
    t.is((await post(gate, body, noSiwx)).body.error.code, 'SIWX_REQUIRED');
    const { 'x-service-payment-intent': _i, ...noIntent } = headers;
    t.is((await post(gate, body, noIntent)).body.error.code, 'PAYMENT_INTENT_REQUIRED');
    const { 'x-service-request': _k, ...noKey } = headers;
    const r4 = await post(gate, body, noKey);
    t.is(r4.status, 428);
    t.is(r4.body.error.code, 'SERVICE_REQUEST_REQUIRED');
    t.regex(r4.body.error.message, /Do not sign/);
  },
);

test.serial(
  'a retry with the same key returns the same delivery with no second transfer, with or without the payment header',
  async (t) => {
    const body = { resources: [ARTICLE(2)], purpose: 'summarization', max_total_micro: '100000' };
    const { paid, payment, headers, key } = await buy(body);
    t.is(paid.status, 200, paid.text);
    const a = buyerA().address;
    const after = await w.devnet.balanceOf(a);
    const again = await post(gate, body, { ...headers, 'payment-signature': payment });
    t.is(again.status, 200);
    t.is(again.text, paid.text);
    // a new sign-in, same key
    const fresh = await gateHeaders({ url: w.url, body, key, payerKey: buyerA().privateKey, coveredOrigins: covered });
    const reread = await post(gate, body, fresh);
    t.is(reread.text, paid.text);
    t.is(await w.devnet.balanceOf(a), after);
    const transfers = (await w.devnet.transfers(a, w.devnet.payTo)).filter(
      (x) => x.transaction === paid.body.payment_settlement.transaction,
    );
    t.is(transfers.length, 1);
  },
);

test.serial('no declaration on any resource: available:false, charge "0", nothing stored', async (t) => {
  const body = { resources: [BARE], purpose: 'ai-input', max_total_micro: '60000' };
  const key = newKey();
  const { res } = await offerFor(body, key);
  t.is(res.status, 200, res.text);
  t.true(isRight(IngestionGateUnavailable.decode(res.body)), res.text);
  t.is(res.body.charge_micro, '0');
  const id = purchaseId({
    sku: 'rights.ingestion-gate.v1',
    key_sha256: sha(key),
    input_sha256: gateInputSha256(body, covered),
  });
  t.deepEqual(await w.service.store.readStream(streamName(id)), []);
});

// Spec §2.3, one refusing test per field rule; each is refused before anything is fetched.
const valid = { resources: [ARTICLE(1)], purpose: 'ai-input', max_total_micro: '60000' };
const refusals: [string, Record<string, unknown>, number, string, string?][] = [
  ['an extra property', { ...valid, surprise: true }, 400, 'UNKNOWN_FIELD', 'surprise'],
  ['5 resources', { ...valid, resources: [1, 2, 3, 4, 5].map(ARTICLE) }, 422, 'VALIDATION_FAILED', 'resources'],
  ['0 resources', { ...valid, resources: [] }, 422, 'VALIDATION_FAILED', 'resources'],
  ['resources not an array', { ...valid, resources: ARTICLE(1) }, 400, 'INVALID_REQUEST', 'resources'],
  // A wrong JSON type is a shape error everywhere (quote, preflight, inspect answer it the same way).
  ['a resource that is not a string', { ...valid, resources: [42] }, 400, 'INVALID_REQUEST', 'resources.0'],
  // The §2.2 rule answers with its own code, as quote and inspect do (one URL rule, spec §2.2).
  [
    'a resource longer than 2048 characters',
    { ...valid, resources: [`${ARTICLE(1)}/${'a'.repeat(2048)}`] },
    422,
    'RESOURCE_TOO_LONG',
    'resources.0',
  ],
  [
    'a resource with a query (URL rule)',
    { ...valid, resources: [`${ARTICLE(1)}?x=1`] },
    422,
    'RESOURCE_HAS_QUERY',
    'resources.0',
  ],
  [
    'an http resource',
    { ...valid, resources: ['http://pub.example/articles/1'] },
    422,
    'RESOURCE_NOT_HTTPS',
    'resources.0',
  ],
  [
    'a resource off coverage',
    { ...valid, resources: ['https://elsewhere.example/a'] },
    422,
    'RESOURCE_NOT_COVERED',
    'resources.0',
  ],
  ['max_total_micro "01"', { ...valid, max_total_micro: '01' }, 422, 'VALIDATION_FAILED', 'max_total_micro'],
  ['max_total_micro "1e3"', { ...valid, max_total_micro: '1e3' }, 422, 'VALIDATION_FAILED', 'max_total_micro'],
  [
    'max_total_micro "100000000001"',
    { ...valid, max_total_micro: '100000000001' },
    422,
    'VALIDATION_FAILED',
    'max_total_micro',
  ],
  ['max_total_micro as a number', { ...valid, max_total_micro: 60000 }, 422, 'VALIDATION_FAILED', 'max_total_micro'],
  [
    'max_total_micro missing',
    { resources: valid.resources, purpose: 'ai-input' },
    400,
    'INVALID_REQUEST',
    'max_total_micro',
  ],
  ['geo "usa"', { ...valid, geo: 'usa' }, 422, 'VALIDATION_FAILED', 'geo'],
  ['geo "USA"', { ...valid, geo: 'USA' }, 422, 'VALIDATION_FAILED', 'geo'],
  ['geo "de"', { ...valid, geo: 'de' }, 422, 'VALIDATION_FAILED', 'geo'],
  ['freshness_seconds 3601', { ...valid, freshness_seconds: 3601 }, 422, 'VALIDATION_FAILED', 'freshness_seconds'],
  ['freshness_seconds -1', { ...valid, freshness_seconds: -1 }, 422, 'VALIDATION_FAILED', 'freshness_seconds'],
  [
    'freshness_seconds 1.5 (not an integer)',
    { ...valid, freshness_seconds: 1.5 },
    422,
    'VALIDATION_FAILED',
    'freshness_seconds',
  ],
  [
    'freshness_seconds "300" (a string)',
    { ...valid, freshness_seconds: '300' },
    422,
    'VALIDATION_FAILED',
    'freshness_seconds',
  ],
  ['tier "premium"', { ...valid, tier: 'premium' }, 422, 'VALIDATION_FAILED', 'tier'],
  ['purpose "crawl"', { ...valid, purpose: 'crawl' }, 422, 'VALIDATION_FAILED', 'purpose'],
  ['purpose missing', { resources: valid.resources, max_total_micro: '60000' }, 400, 'INVALID_REQUEST', 'purpose'],
  ['user_class "enterprise"', { ...valid, user_class: 'enterprise' }, 422, 'VALIDATION_FAILED', 'user_class'],
  ['a body that is an array', [valid] as unknown as Record<string, unknown>, 400, 'INVALID_REQUEST'],
];
for (const [what, body, status, code, field] of refusals) {
  test(`§2.3 refuses ${what} (${status} ${code})`, async (t) => {
    const fetched = w.origins.requests.length;
    const headers = { 'x-service-request': newKey() };
    const res = await post(gate, body, headers);
    t.is(res.status, status, res.text);
    t.is(res.body.error.code, code);
    if (field !== undefined) t.is(res.body.error.details.field, field);
    t.is(w.origins.requests.length, fetched);
  });
}

const accepted: [string, Record<string, unknown>][] = [
  ['geo null', { ...valid, geo: null }],
  ['geo "DE"', { ...valid, geo: 'DE' }],
  ['freshness_seconds 3600', { ...valid, freshness_seconds: 3600 }],
  ['freshness_seconds 0', { ...valid, freshness_seconds: 0 }],
  ['every gate purpose alias', { ...valid, purpose: 'search-indexing' }],
  ['max_total_micro "100000000000"', { ...valid, max_total_micro: '100000000000' }],
];
for (const [what, body] of accepted) {
  test(`§2.3 accepts ${what} (reaches the header checks)`, async (t) => {
    const res = await post(gate, body, {});
    t.is(res.status, 428, res.text);
    t.is(res.body.error.code, 'SERVICE_REQUEST_REQUIRED');
  });
}

test.after.always('no key, intent, sign-in proof or payment reached a log line', (t) => {
  if (!w.dataDir) return; // the world did not start
  assertNoSecretsLogged(t, w.logs(), secrets);
});
