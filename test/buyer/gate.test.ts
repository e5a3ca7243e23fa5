import test from 'ava';
import { BuyerRefused, verifySavedReport } from '@rights-preflight/buyer';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { buyerFor } from './support/buyer-world.js';
import { anotherNetwork, anotherRecipient, priced, unboundNonce } from './support/tampered-offers.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import {
  assertResumedWithOneAuthorization,
  dropFirstPaidAnswer,
  isPaid,
  rewritePaymentRequired,
  useProxy,
} from './support/proxy.js';

// buyer.ingestionGate() against the real service on the devnet, directly and through a real HTTP peer
// that alters or swallows answers. The gate adds a sign-in proof and a payment intent to the money path;
// everything else (pins, checkpoint before send, resume, verification) must hold exactly as for a report.

const w = useWorld(demoWorld({ logLevel: 'debug' }));
const proxy = useProxy(() => w.url);

const GATE_CAP = { maxPerReportMicro: 300_000n };
const article = (n: string) => `https://open.demo.example/articles/${n}`;
const viaProxy = (buyerIndex: number, extra: Parameters<typeof buyerFor>[1] = {}) =>
  buyerFor(w, { baseUrl: proxy.url, publicUrl: w.url, buyerIndex, ...GATE_CAP, ...extra });

test.serial(
  'two resources (one repeated): signed in, offered the published price, paid once, every entry verified',
  async (t) => {
    const b = buyerFor(w, { buyerIndex: 0, ...GATE_CAP });
    const [before, payToBefore] = [await w.devnet.balanceOf(b.address), await w.devnet.balanceOf(w.devnet.payTo)];
    const transfersBefore = (await w.devnet.transfers(b.address, w.devnet.payTo)).length;
    const r = await b.buyer.ingestionGate({
      resources: [DEMO_RESOURCES.permitted, DEMO_RESOURCES.prohibited, DEMO_RESOURCES.permitted],
      purpose: 'rag-ingestion',
    });
    if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
    t.deepEqual(
      r.classifications.map((c) => [c.resource, c.classification]),
      [
        [DEMO_RESOURCES.permitted, 'PERMITTED_BY_OBSERVED_DECLARATION'],
        [DEMO_RESOURCES.prohibited, 'PROHIBITED_BY_OBSERVED_DECLARATION'],
      ],
    );
    t.is(r.amount_micro, '80000'); // fresh: 40,000 + 20,000 × 2 unique URLs
    t.is(r.response.report.resources.length, 2);
    t.is((r.response as unknown as { report: { sku: string } }).report.sku, 'rights.ingestion-gate.v1');
    t.false((r.response as unknown as { legal_clearance: boolean }).legal_clearance);
    t.is(await w.devnet.balanceOf(b.address), before - 80_000n);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore + 80_000n);
    const transfers = await w.devnet.transfers(b.address, w.devnet.payTo);
    t.is(transfers.length, transfersBefore + 1);
    t.is(transfers.at(-1)!.transaction as string, r.transaction);
    t.deepEqual(
      b.calls.map((c) => c.op),
      ['save', 'remove'],
    );
    const steps = b.events.map((e) => e.step);
    t.true(steps.indexOf('signed-in') < steps.indexOf('offer.ok'), 'signed in before the first request');
    t.true(steps.indexOf('checkpoint.saved') < steps.indexOf('send'));
    t.is(b.buyer.spentMicro, 80_000n);

    // The saved report verifies offline; the gate's binding resource is the gate URL, and the report is
    // tied to the paid question by its recomputed input digest.
    t.is(r.saved.binding.resource, `${w.url}/v1/rights/ingestion-gate`);
    t.is(r.saved.binding.key_source, 'x-service-request');
    t.deepEqual(verifySavedReport(r.saved, w.service.evidenceKey.public_key).ok, true);
    const dropped = structuredClone(r.saved) as any;
    dropped.response.report.resources.pop();
    dropped.response.evidence.payload.resources.pop();
    t.false(verifySavedReport(dropped, w.service.evidenceKey.public_key).ok);
  },
);

test.serial('no declaration on any resource: unavailable, nothing signed or stored, nothing charged', async (t) => {
  const b = buyerFor(w, { buyerIndex: 1, ...GATE_CAP });
  const before = await w.devnet.balanceOf(b.address);
  const r = await b.buyer.ingestionGate({ resources: [DEMO_RESOURCES.undeclared], purpose: 'ai-input' });
  t.is(r.status, 'unavailable');
  if (r.status !== 'unavailable') return;
  t.deepEqual(r.resources, [DEMO_RESOURCES.undeclared]);
  t.is(r.charge_micro, '0');
  t.deepEqual(b.calls, []);
  t.is(b.buyer.spentMicro, 0n);
  t.is(await w.devnet.balanceOf(b.address), before);
});

test.serial('a gate price above the per-report cap is refused before any request', async (t) => {
  const b = viaProxy(1, { maxPerReportMicro: 100_000n });
  const err = await t.throwsAsync(
    b.buyer.ingestionGate({ resources: [article('weather'), article('oceans')], purpose: 'ai-input', tier: 'deep' }),
    { instanceOf: BuyerRefused },
  );
  t.is(err?.code, 'PRICE_ABOVE_REPORT_BUDGET'); // deep: 60,000 + 40,000 × 2 = 140,000
  t.deepEqual(proxy.seen, []);
});

for (const [what, edit, code] of [
  anotherRecipient,
  priced('a higher price than the published gate price', '60001', 'PRICE_MISMATCH'),
  anotherNetwork,
  unboundNonce,
]) {
  test.serial(`a gate offer with ${what} is refused before signing: no checkpoint, no payment sent`, async (t) => {
    const b = viaProxy(2);
    proxy.rewrite = (ex, res) =>
      ex.status === 402 && res.headers['payment-required']
        ? { headers: rewritePaymentRequired(res.headers, edit), body: res.body }
        : undefined;
    const before = await w.devnet.balanceOf(b.address);
    const err = await t.throwsAsync(b.buyer.ingestionGate({ resources: [article('weather')], purpose: 'ai-index' }), {
      instanceOf: BuyerRefused,
    });
    t.is(err?.code, code);
    t.is(proxy.seen.length, 1);
    t.true(typeof proxy.seen[0]!.headers['sign-in-with-x'] === 'string', 'the first request carried the sign-in proof');
    t.false(proxy.seen.some(isPaid));
    t.deepEqual(b.calls, []);
    t.false(b.events.some((e) => e.step === 'signed'));
    t.is(b.buyer.spentMicro, 0n);
    t.is(await w.devnet.balanceOf(b.address), before);
  });
}

test.serial('a paid gate report with one byte changed is held, never returned as a report', async (t) => {
  const b = viaProxy(2);
  proxy.rewrite = (ex, res) => {
    if (!isPaid(ex) || ex.status !== 200) return undefined;
    const text = res.body.toString('utf8');
    const at = text.indexOf('"classification":"') + '"classification":"'.length;
    const body = Buffer.from(text, 'utf8');
    body[at] = body[at] === 0x50 ? 0x51 : 0x50;
    return { headers: res.headers, body };
  };
  const before = await w.devnet.balanceOf(b.address);
  const r = await b.buyer.ingestionGate({ resources: [article('forests')], purpose: 'ai-input' });
  t.is(r.status, 'held');
  t.false('response' in r);
  t.is(await w.devnet.balanceOf(b.address), before - 60_000n, 'it was paid: tampering happened after settlement');
  t.is(b.boxes.size, 1, 'the checkpoint is kept for follow-up');
});

test.serial(
  'a paid gate answer dropped on the way back is resumed with the same payment header: one transfer',
  async (t) => {
    const b = viaProxy(3);
    const dropped = dropFirstPaidAnswer(proxy, b.boxes);
    const before = await w.devnet.balanceOf(b.address);
    const transfersBefore = (await w.devnet.transfers(b.address, w.devnet.payTo)).length;
    const r = await b.buyer.ingestionGate({
      resources: [article('rivers'), DEMO_RESOURCES.licenseRequired],
      purpose: 'ai-input',
      tier: 'deep',
      geo: 'DE',
    });
    if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
    t.true(r.resumed);
    assertResumedWithOneAuthorization(t, proxy, b, dropped);
    t.is(proxy.seen.filter((e) => !isPaid(e)).length, 1, 'offered once');
    t.deepEqual(
      r.classifications.map((c) => c.classification),
      ['PERMITTED_BY_OBSERVED_DECLARATION', 'LICENSE_REQUIRED'],
    );
    t.is(r.amount_micro, '140000');
    t.is((await w.devnet.transfers(b.address, w.devnet.payTo)).length, transfersBefore + 1);
    t.is(await w.devnet.balanceOf(b.address), before - 140_000n);
    t.is(b.boxes.size, 0);
  },
);

test.after.always('no key, intent, sign-in proof or payment the buyer sent reached the service log', (t) => {
  if (!w.dataDir) return; // the world did not start
  const sent = proxy.seen.map((e) => e.headers);
  const str = (v: unknown) => (typeof v === 'string' ? [v] : []);
  assertNoSecretsLogged(t, w.logs(), {
    claims: sent.flatMap((h) => [
      ...str(h['x-service-request']),
      ...str(h['x-service-payment-intent']),
      ...str(h['sign-in-with-x']),
    ]),
    paymentHeaders: sent.flatMap((h) => str(h['payment-signature'])),
  });
});
