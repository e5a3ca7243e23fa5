import test from 'ava';
import { BuyerRefused } from '@rights-preflight/buyer';
import { demoWorld, useWorld } from '../support/world.js';
import { buyerFor } from './support/buyer-world.js';
import {
  anotherNetwork,
  anotherRecipient,
  priced,
  unboundNonce,
  type OfferTampering,
} from './support/tampered-offers.js';
import {
  assertResumedWithOneAuthorization,
  dropFirstPaidAnswer,
  isPaid,
  rewritePaymentRequired,
  useProxy,
} from './support/proxy.js';

// A real HTTP peer between the buyer and the real service alters or swallows answers.

const w = useWorld(demoWorld());
const proxy = useProxy(() => w.url);

const article = (n: string) => `https://open.demo.example/articles/${n}`;

test.serial('a paid report with one byte changed is held: no report is returned', async (t) => {
  const b = buyerFor(w, { baseUrl: proxy.url, buyerIndex: 0 });
  proxy.rewrite = (ex, res) => {
    if (!isPaid(ex) || ex.status !== 200) return undefined;
    const text = res.body.toString('utf8');
    // The report's first reason (the body is canonical JSON: "evidence" comes before "report").
    const at = text.indexOf('"detail":"', text.indexOf('"report":')) + '"detail":"'.length;
    const body = Buffer.from(text, 'utf8');
    body[at] = body[at] === 0x41 ? 0x42 : 0x41; // one byte: the first character of the report's first reason
    return { headers: res.headers, body };
  };
  const before = await w.devnet.balanceOf(b.address);
  const r = await b.buyer.buyReport({ resource: article('climate'), purpose: 'ai-input', tier: 'fresh' });
  t.is(r.status, 'held');
  if (r.status !== 'held') return;
  t.regex(r.reason, /report digest|differs from the signed evidence/);
  t.false('response' in r);
  t.regex(r.transaction ?? '', /^0x[0-9a-f]{64}$/);
  // It was paid (the tampering happened after settlement); the checkpoint is kept for follow-up.
  t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
  t.is(b.boxes.size, 1);
});

for (const [what, edit, code] of [
  anotherRecipient,
  priced('a higher price', '30000', 'PRICE_MISMATCH'),
  priced('a price above the per-report cap', '60000', 'PRICE_ABOVE_REPORT_BUDGET'),
  anotherNetwork,
  unboundNonce,
  [
    'an altered signed offer receipt',
    (pr: any) => {
      pr.extensions['service-offer-receipt'].info.receipt.payload.max_timeout_seconds += 1;
      pr.accepts[0].maxTimeoutSeconds += 1;
    },
    'OFFER_RECEIPT_INVALID',
  ] as OfferTampering,
]) {
  test.serial(
    `an offer with ${what} is refused before signing: no checkpoint, no payment sent, balances unchanged`,
    async (t) => {
      const b = buyerFor(w, { baseUrl: proxy.url, buyerIndex: 1 });
      proxy.rewrite = (ex, res) =>
        ex.status === 402 && res.headers['payment-required']
          ? { headers: rewritePaymentRequired(res.headers, edit), body: res.body }
          : undefined;
      const [buyerBefore, payToBefore] = [
        await w.devnet.balanceOf(b.address),
        await w.devnet.balanceOf(w.devnet.payTo),
      ];
      const err = await t.throwsAsync(
        b.buyer.buyReport({ resource: article('weather'), purpose: 'ai-input', tier: 'fresh' }),
        { instanceOf: BuyerRefused },
      );
      t.is(err?.code, code);
      t.deepEqual(b.calls, []);
      t.is(b.boxes.size, 0);
      t.false(proxy.seen.some(isPaid));
      t.false(b.events.some((e) => e.step === 'signed'));
      t.is(b.buyer.spentMicro, 0n);
      t.is(await w.devnet.balanceOf(b.address), buyerBefore);
      t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore);
    },
  );
}

test.serial(
  'a paid response dropped on the way back is resumed with the same checkpoint: one transfer, one delivery',
  async (t) => {
    const b = buyerFor(w, { baseUrl: proxy.url, buyerIndex: 2 });
    const dropped = dropFirstPaidAnswer(proxy, b.boxes);
    const before = await w.devnet.balanceOf(b.address);
    const r = await b.buyer.buyReport({ resource: article('oceans'), purpose: 'ai-index', tier: 'fresh' });
    if (r.status !== 'delivered') return t.fail(JSON.stringify(r));
    t.true(r.resumed);
    assertResumedWithOneAuthorization(t, proxy, b, dropped);
    t.is(proxy.seen.filter((e) => e.path === '/v1/rights/quote').length, 1, 'never re-quoted');
    const transfers = await w.devnet.transfers(b.address, w.devnet.payTo);
    t.is(transfers.length, 1);
    t.is(transfers[0]!.transaction as string, r.transaction);
    t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
  },
);

test.serial(
  'when every paid answer is lost the checkpoint is kept (RESUME_EXHAUSTED, never re-signed); ' +
    'resume() later redelivers it',
  async (t) => {
    const b = buyerFor(w, { baseUrl: proxy.url, buyerIndex: 3 });
    proxy.rewrite = (ex) => (isPaid(ex) ? 'drop' : undefined);
    const before = await w.devnet.balanceOf(b.address);
    const err = await t.throwsAsync(
      b.buyer.buyReport({ resource: article('forests'), purpose: 'ai-input', tier: 'fresh' }),
      { instanceOf: BuyerRefused },
    );
    t.is(err?.code, 'RESUME_EXHAUSTED');
    t.is(b.boxes.size, 1);
    const [id] = [...b.boxes.keys()];
    proxy.rewrite = undefined;
    const r = await b.buyer.resume(id!);
    t.is(r.status, 'delivered');
    t.is(new Set(proxy.seen.filter(isPaid).map((e) => e.headers['payment-signature'])).size, 1);
    t.is((await w.devnet.transfers(b.address, w.devnet.payTo)).length, 1);
    t.is(await w.devnet.balanceOf(b.address), before - 20_000n);
    t.is(b.boxes.size, 0);
  },
);
