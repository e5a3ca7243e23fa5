import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { IngestionGateResponse } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { signPayment } from '../support/pay.js';
import { post, type Answer } from '../support/post.js';
import { ARTICLE, BARE } from '../support/publishers.js';
import { gateHeaders, newKey } from './support/gate-buyer.js';
import { useWorld } from '../support/world.js';

// No 500 on any read of a delivered purchase (docs/decisions.md, "Every resource as it was sold; no 500 and a
// constant-work 404 at the report URL"): every product's delivery, read back through every path docs/wire.md §9
// documents, is the stored delivery byte for byte with the same PAYMENT-RESPONSE; an ingestion gate's report URL before
// delivery is the documented 409.

const w = useWorld();

const get = async (url: string, headers: Record<string, string>): Promise<Answer> => {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
};
const reportUrl = (id: string) => `${w.url}/v1/rights/reports/${id}`;

/** Pays a 402 offer answer by re-sending the request with PAYMENT-SIGNATURE. */
async function paid(offer: Answer, resend: (payment: string) => Promise<Answer>): Promise<Answer> {
  if (offer.status !== 402) throw new Error(`expected 402, got ${offer.status}: ${offer.text}`);
  return resend(await signPayment(w.devnet.buyers[0]!.privateKey, offer.headers.get('payment-required')!));
}

function sameDelivery(t: import('ava').ExecutionContext, first: Answer, again: Answer, path: string) {
  t.is(again.status, 200, `${path}: ${again.text}`);
  t.is(again.text, first.text, `${path}: the stored delivery, byte for byte`);
  t.is(again.headers.get('payment-response'), first.headers.get('payment-response'), `${path}: PAYMENT-RESPONSE`);
}

test.serial('quote flow: the report URL with the claim re-serves the delivery', async (t) => {
  const quote = await post(`${w.url}/v1/rights/quote`, {
    resource: ARTICLE(1),
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  t.is(quote.status, 200, quote.text);
  const claim = { 'x-service-claim': quote.body.claim_token as string };
  const url = reportUrl(quote.body.purchase_id);
  const delivered = await paid(await get(url, claim), (p) => get(url, { ...claim, 'payment-signature': p }));
  t.is(delivered.status, 200, delivered.text);
  t.true(isRight(PaidReportResponse.decode(delivered.body)));
  sameDelivery(t, delivered, await get(url, claim), 'report URL');
});

test.serial('preflight: the same request and the report URL with the key re-serve the delivery', async (t) => {
  const key = newKey();
  const body = { resource: ARTICLE(2), purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' };
  const url = `${w.url}/v1/rights/preflight`;
  const delivered = await paid(await post(url, body, { 'x-service-request': key }), (p) =>
    post(url, body, { 'x-service-request': key, 'payment-signature': p }),
  );
  t.is(delivered.status, 200, delivered.text);
  t.true(isRight(PaidReportResponse.decode(delivered.body)));
  sameDelivery(t, delivered, await post(url, body, { 'x-service-request': key }), 'same request');
  sameDelivery(
    t,
    delivered,
    await get(reportUrl(delivered.body.report.purchase_id), { 'x-service-claim': key }),
    'report URL',
  );
});

test.serial(
  'ingestion gate: the same request and the report URL with the key re-serve the delivery; ' +
    'before delivery the report URL is a 409 and nothing is charged',
  async (t) => {
    const key = newKey();
    const body = { resources: [ARTICLE(3), BARE], purpose: 'rag-ingestion', max_total_micro: '80000' };
    const url = `${w.url}/v1/rights/ingestion-gate`;
    const headers = await gateHeaders({
      url: w.url,
      body,
      key,
      payerKey: w.devnet.buyers[0]!.privateKey,
      coveredOrigins: w.origins.origins,
    });
    const offer = await post(url, body, headers);
    t.is(offer.status, 402, offer.text);
    const id = offer.body.error.details.purchase_id as string;
    const early = await get(reportUrl(id), { 'x-service-claim': key });
    t.is(early.status, 409, early.text);
    t.is(early.body.error.code, 'REPORT_NOT_DELIVERED');
    const wrong = await get(reportUrl(id), { 'x-service-claim': newKey() });
    t.is(wrong.status, 404);
    t.is(wrong.body.error.code, 'REPORT_NOT_FOUND');

    const delivered = await paid(offer, (p) => post(url, body, { ...headers, 'payment-signature': p }));
    t.is(delivered.status, 200, delivered.text);
    t.true(isRight(IngestionGateResponse.decode(delivered.body)));
    sameDelivery(t, delivered, await post(url, body, headers), 'same request');
    sameDelivery(t, delivered, await get(reportUrl(id), { 'x-service-claim': key }), 'report URL');
    t.false(w.logs().includes('"status":500'), 'no read answered 500');
  },
);
