import test from 'ava';
import { createHash } from 'node:crypto';
import { isRight } from 'fp-ts/lib/Either.js';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { boundNonce, inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { singleReportInput } from '../../src/products/single-report/normalize.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { PreflightDiscovery } from '@rights-preflight/wire/contract/preflight.js';
import { purchaseId, streamName } from '../../streams/purchase/purchase-id.js';
import { signPayment } from '../support/pay.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { post } from '../support/post.js';
import { ARTICLE, BARE } from '../support/publishers.js';
import { newKey } from './support/gate-buyer.js';
import { useWorld } from '../support/world.js';

let preflightUrl: string;
let evidenceKey: string;
const secrets: { claims: string[]; paymentHeaders: string[] } = { claims: [], paymentHeaders: [] };
const w = useWorld();
test.before(async () => {
  preflightUrl = `${w.url}/v1/rights/preflight`;
  evidenceKey = ((await (await fetch(`${w.url}/v1/capabilities`)).json()) as any).evidence.keys[0].public_key;
});

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const countEvents = async () => (await w.service.store.readAll(0n, 1_000_000)).length;

test.serial(
  'an empty POST (no body, or {}) is discovery only: what to send, headers, prices; nothing fetched or stored',
  async (t) => {
    const [events, fetched] = [await countEvents(), w.origins.requests.length];
    for (const body of [undefined, {}]) {
      const res = await post(preflightUrl, body, { 'x-service-request': newKey() });
      t.is(res.status, 200, res.text);
      t.true(isRight(PreflightDiscovery.decode(res.body)), res.text);
      t.deepEqual(res.body.prices_micro, { fresh: '20000', deep: '50000' });
      t.is(res.body.charge_micro, '0');
      t.true(res.body.headers.some((h: any) => h.name === 'X-Service-Request' && h.required));
      t.is(res.body.payment.pay_to, w.devnet.payTo);
      t.is(res.body.report, undefined);
    }
    t.is(await countEvents(), events);
    t.is(w.origins.requests.length, fetched);
  },
);

test.serial('a prepared request without X-Service-Request is refused with a clear "do not sign" error', async (t) => {
  const fetched = w.origins.requests.length;
  const res = await post(preflightUrl, {
    resource: ARTICLE(1),
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  t.is(res.status, 428);
  t.is(res.body.error.code, 'SERVICE_REQUEST_REQUIRED');
  t.regex(res.body.error.message, /Do not sign/);
  t.is(w.origins.requests.length, fetched);
  const bad = await post(
    preflightUrl,
    { resource: ARTICLE(1), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
    { 'x-service-request': 'short' },
  );
  t.is(bad.status, 400);
  t.is(bad.body.error.code, 'SERVICE_REQUEST_INVALID');
});

const purposes: [string, string, string][] = [
  ['ai-input', 'ALLOW_DECLARED', 'PERMITTED_BY_OBSERVED_DECLARATION'],
  ['ai-index', 'ALLOW_DECLARED', 'PERMITTED_BY_OBSERVED_DECLARATION'],
  ['ai-train', 'DENY_DECLARED', 'PROHIBITED_BY_OBSERVED_DECLARATION'],
  ['search', 'ALLOW_DECLARED', 'PERMITTED_BY_OBSERVED_DECLARATION'],
];
for (const [purpose, decision, classification] of purposes) {
  test.serial(
    `happy path for ${purpose}: 402 with price, network, asset and the request binding, then the paid result`,
    async (t) => {
      const key = newKey();
      secrets.claims.push(key);
      const tier = purpose === 'search' ? 'deep' : 'fresh';
      const price = tier === 'deep' ? 50_000n : 20_000n;
      const body = { resource: ARTICLE(2), purpose, tier, max_total_micro: '50000' };
      const offer = await post(preflightUrl, body, { 'x-service-request': key });
      t.is(offer.status, 402, offer.text);
      t.is(offer.body.error.details.charge_micro, price.toString());
      t.is(offer.body.error.details.network, 'eip155:8453');
      t.is(offer.body.error.details.asset, w.service.terms.asset);
      const prHeader = offer.headers.get('payment-required')!;
      const pr = decodePaymentRequiredHeader(prHeader);
      const input = inputSha256(singleReportInput(ARTICLE(2), purpose as any, tier as any, 'commercial'));
      const binding = (pr.extensions as any)['service-request-binding'].info;
      t.is(binding.key_source, 'x-service-request');
      t.is(binding.nonce, boundNonce({ resource: ARTICLE(2), key, input_sha256: input }));
      t.is(
        offer.body.error.details.purchase_id,
        purchaseId({ sku: 'rights.preflight.v1', key_sha256: sha(key), input_sha256: input }),
      );

      const buyer = w.devnet.buyers[2]!;
      const before = await w.devnet.balanceOf(buyer.address);
      const payment = await signPayment(buyer.privateKey, prHeader);
      secrets.paymentHeaders.push(payment);
      const paid = await post(preflightUrl, body, { 'x-service-request': key, 'payment-signature': payment });
      t.is(paid.status, 200, paid.text);
      t.true(isRight(PaidReportResponse.decode(paid.body)), paid.text);
      for (const k of ['report', 'evidence', 'payment_settlement', 'delivery_proof']) t.truthy(paid.body[k]);
      t.is(paid.body.report.resources[0].decision, decision);
      t.is(paid.body.report.resources[0].classification, classification);
      t.is(paid.body.report.purpose, purpose);
      t.true(await verifyEnvelope(paid.body.evidence, evidenceKey));
      t.true(await verifyEnvelope(paid.body.delivery_proof, evidenceKey));
      t.is(
        decodePaymentResponseHeader(paid.headers.get('payment-response')!).transaction,
        paid.body.payment_settlement.transaction,
      );
      t.is(await w.devnet.balanceOf(buyer.address), before - price);
      // The key also reads the same delivery at the report URL (it is this purchase's claim).
      const reread = await fetch(`${w.url}/v1/rights/reports/${paid.body.report.purchase_id}`, {
        headers: { 'x-service-claim': key },
      });
      t.is(await reread.text(), paid.text);
    },
  );
}

test.serial(
  'same key + same input = same purchase stream: the offer is repeated, nothing is fetched again',
  async (t) => {
    const key = newKey();
    secrets.claims.push(key);
    const body = { resource: ARTICLE(3), purpose: 'ai-index', tier: 'fresh', max_total_micro: '20000' };
    const first = await post(preflightUrl, body, { 'x-service-request': key });
    const fetched = w.origins.requests.length;
    // defaults spelled out: same input
    const second = await post(preflightUrl, { ...body, user_class: 'commercial' }, { 'x-service-request': key });
    t.is(first.status, 402);
    t.is(second.headers.get('payment-required'), first.headers.get('payment-required'));
    t.is(w.origins.requests.length, fetched);
    const events = await w.service.store.readStream(streamName(first.body.error.details.purchase_id));
    t.deepEqual(
      events.map((e) => e.type),
      ['Quoted', 'Offered'],
    );
    // Another input under the same key is another purchase (the id and the nonce include input_sha256).
    const other = await post(preflightUrl, { ...body, purpose: 'search' }, { 'x-service-request': key });
    t.is(other.status, 402);
    t.not(other.body.error.details.purchase_id, first.body.error.details.purchase_id);
    t.not(other.body.error.details.nonce, first.body.error.details.nonce);
  },
);

test.serial(
  'no declaration: 200 available:false, charge_micro "0", not a purchased report, nothing stored',
  async (t) => {
    const events = await countEvents();
    const res = await post(
      preflightUrl,
      { resource: BARE, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' },
      { 'x-service-request': newKey() },
    );
    t.is(res.status, 200);
    t.true(isRight(UnavailableQuote.decode(res.body)), res.text);
    t.is(res.body.charge_micro, '0');
    t.is(res.body.reason, 'NO_VERIFIABLE_DECLARATION');
    t.is(res.body.report, undefined);
    t.is(await countEvents(), events);
  },
);

test.serial("budget and body rules are the quote's: above budget 422, extra property 400", async (t) => {
  const key = newKey();
  const deep = await post(
    preflightUrl,
    { resource: ARTICLE(4), purpose: 'ai-input', tier: 'deep', max_total_micro: '49999' },
    { 'x-service-request': key },
  );
  t.is(deep.status, 422);
  t.is(deep.body.error.code, 'PRICE_EXCEEDS_BUDGET');
  const extra = await post(
    preflightUrl,
    { resource: ARTICLE(4), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000', x: 1 },
    { 'x-service-request': key },
  );
  t.is(extra.body.error.code, 'UNKNOWN_FIELD');
});

test.serial(
  "a key already used as a quote's Idempotency-Key is refused (409) rather than sharing a stream",
  async (t) => {
    const key = newKey();
    secrets.claims.push(key);
    const body = { resource: ARTICLE(5), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' };
    const q = await post(`${w.url}/v1/rights/quote`, body, { 'idempotency-key': key });
    t.is(q.status, 200);
    secrets.claims.push(q.body.claim_token);
    const res = await post(preflightUrl, body, { 'x-service-request': key });
    t.is(res.status, 409);
    t.is(res.body.error.code, 'SERVICE_REQUEST_KEY_REUSED');
  },
);

test.after.always('no X-Service-Request value or payment reached a log line', (t) => {
  if (!w || secrets.paymentHeaders.length === 0) return;
  assertNoSecretsLogged(t, w.logs(), secrets);
});
