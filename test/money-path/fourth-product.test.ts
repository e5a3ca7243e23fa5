import test from 'ava';
import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { BASE_USDC } from '@rights-preflight/wire/payment/x402-constants.js';
import { ECHO_PATH, ECHO_PRICE_MICRO, ECHO_SKU, echoListing } from '../support/echo-product/echo.js';
import { FAST_PAY_TO, useFastWorld } from '../support/fast-world.js';
import { signPayment } from '../support/pay.js';
import type { SettlementScript } from '../support/scripted-settlement.js';

// A product defined in the test tree only (test/support/echo-product/) is listed, quoted, offered, paid
// and delivered through the service's own composition, with no file of the service edited: the registry
// line is the fast world's `products` option (test/README.md, "A product of your own").

const BUYER_KEY = `0x${'22'.repeat(32)}` as const;
const PAYER = privateKeyToAccount(BUYER_KEY).address;
const script: SettlementScript = {
  used: [false],
  get settle() {
    const transaction = `0x${randomBytes(32).toString('hex')}` as const;
    const network = 'eip155:8453';
    const transfer = {
      transaction,
      from: PAYER,
      to: FAST_PAY_TO,
      value: ECHO_PRICE_MICRO,
      block: 101n,
      asset: BASE_USDC,
      network,
    };
    return { kind: 'success' as const, transaction, payer: PAYER, amount: ECHO_PRICE_MICRO.toString(), transfer };
  },
};
const world = useFastWorld(script, { products: [echoListing] });

const key = () => randomBytes(24).toString('base64url');
const echo = (serviceRequest: string, resource: string, headers: Record<string, string> = {}) =>
  fetch(world.url + ECHO_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-request': serviceRequest, ...headers },
    body: JSON.stringify({ resource, max_total_micro: '5000' }),
  });

test('the fourth product is listed in capabilities and the OpenAPI document', async (t) => {
  const caps = (await (await fetch(`${world.url}/v1/capabilities`)).json()) as {
    products: { sku: string; enabled: boolean; endpoint: string }[];
  };
  t.deepEqual(
    caps.products.find((p) => p.sku === ECHO_SKU),
    { sku: ECHO_SKU, enabled: true, endpoint: ECHO_PATH, tiers: echoListing.capability.tiers, purposes: ['ai-train'] },
  );
  const doc = (await (await fetch(`${world.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  t.is(doc.paths[ECHO_PATH]?.post?.operationId, 'echo');
});

test('the fourth product is quoted, offered, paid and delivered, and its report URL serves the delivery', async (t) => {
  const k = key();
  const offer = await echo(k, 'https://example.test/page');
  t.is(offer.status, 402, await offer.clone().text());
  const body = (await offer.json()) as { error: { details: { purchase_id: string; charge_micro: string } } };
  t.is(body.error.details.charge_micro, ECHO_PRICE_MICRO.toString());
  const id = body.error.details.purchase_id;
  const stored = await world.store.readStream(`purchase-${id}`);
  t.deepEqual(
    stored.map((e) => e.type),
    ['Quoted', 'Offered'],
  );
  t.is((stored[0]!.data as { sku: string }).sku, ECHO_SKU);

  // Offered and paid only at its own POST: the report URL refuses before the delivery.
  const early = await fetch(`${world.url}/v1/rights/reports/${id}`, { headers: { 'x-service-claim': k } });
  t.is(early.status, 409);

  const payment = await signPayment(BUYER_KEY, offer.headers.get('payment-required')!);
  const paid = await echo(k, 'https://example.test/page', { 'payment-signature': payment });
  const text = await paid.text();
  t.is(paid.status, 200, text);
  t.truthy(paid.headers.get('payment-response'));
  const delivered = JSON.parse(text) as { report: { sku: string; resource: string; purchase_id: string } };
  t.deepEqual(delivered.report, { sku: ECHO_SKU, purchase_id: id, resource: 'https://example.test/page' });
  t.true(world.settlement.calls.includes('settle'));

  const again = await fetch(`${world.url}/v1/rights/reports/${id}`, { headers: { 'x-service-claim': k } });
  t.is(again.status, 200);
  t.is(await again.text(), text, 'the report URL serves the same delivery, in the product’s own body');
});

// Serial: it runs alone, before the others, so the store's length is this test's alone.
test.serial('the fourth product’s free answer stores and charges nothing', async (t) => {
  const before = (await world.store.readAll(0n, 100_000)).length;
  const res = await echo(key(), 'nothing');
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { available: false, charge_micro: '0' });
  t.is((await world.store.readAll(0n, 100_000)).length, before);
});
