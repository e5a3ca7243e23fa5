import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { RefundView } from '../../src/contract/refund.js';
import { randomUUID } from 'node:crypto';
import { runCli } from '../../ops/cli.js';
import { openStore } from '../../src/store/open.js';
import { refundStream } from '../../streams/refund/events.js';
import { signPayment } from '../support/pay.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { DECLARED, getReport, moneyWorld, postQuote, type MoneyWorld } from '../support/money-env.js';

// Refund requests end to end (spec §3): a real paid purchase on the devnet, the buyer's request over
// HTTP with its claim, then the operator's review and recorded refund through `npm run ops -- refunds`
// on the same store. No step moves money: the balances after the request are the balances after payment.

let w: MoneyWorld;
test.before(async () => {
  w = await moneyWorld();
  await w.start();
});
test.after.always(async () => {
  await w?.close();
});

const secrets: string[] = [];
const paymentHeaders: string[] = [];
const refund = (body: unknown, claim?: string) =>
  fetch(`${w.url}/v1/rights/refund-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(claim ? { 'x-service-claim': claim } : {}) },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
const status = (id: string, claim: string) =>
  fetch(`${w.url}/v1/rights/refund-requests/${id}`, { headers: { 'x-service-claim': claim } }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as any,
  }));

async function quoted() {
  const q = await postQuote(w.url, {
    resource: DECLARED,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  secrets.push(q.body.claim_token);
  return q.body as { purchase_id: string; claim_token: string; report_url: string };
}

async function paidPurchase(buyerIndex: number) {
  const q = await quoted();
  const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  const payment = await signPayment(w.devnet.buyers[buyerIndex]!.privateKey, offer.headers.get('payment-required')!);
  paymentHeaders.push(payment);
  const paid = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': payment });
  if (paid.status !== 200) throw new Error(`payment failed: ${paid.text}`);
  return { ...q, transaction: paid.body.payment_settlement.transaction as string };
}

test.serial(
  'the buyer files a request for a paid purchase; it is recorded, readable, idempotent, and moves no money',
  async (t) => {
    const p = await paidPurchase(0);
    const buyer = w.devnet.buyers[0]!.address;
    const [buyerBefore, payToBefore] = [await w.devnet.balanceOf(buyer), await w.devnet.balanceOf(w.devnet.payTo)];
    const body = {
      purchase_id: p.purchase_id,
      reason: 'VERIFICATION_FAILED',
      message: 'the evidence did not verify on our side',
    };
    const r = await refund(body, p.claim_token);
    t.is(r.status, 201, JSON.stringify(r.body));
    t.true(isRight(RefundView.decode(r.body)));
    t.is(r.body.status, 'requested');
    t.deepEqual(r.body.charge, { amount_micro: '20000', payer: buyer, transaction: p.transaction });
    t.false(r.body.automatic_transfer);
    const again = await refund(body, p.claim_token);
    t.is(again.status, 200);
    t.deepEqual(again.body, r.body);
    const other = await refund({ ...body, reason: 'OTHER' }, p.claim_token);
    t.is(other.status, 409);
    t.is(other.body.error.code, 'REFUND_ALREADY_REQUESTED');
    t.deepEqual((await status(p.purchase_id, p.claim_token)).body, r.body);
    t.is(await w.devnet.balanceOf(buyer), buyerBefore);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore);
  },
);

test.serial(
  "unknown purchase, missing or wrong claim: the report's one 404; nothing charged: 409; the claim in the message: 422",
  async (t) => {
    const p = await paidPurchase(1);
    const body = { purchase_id: p.purchase_id, reason: 'NOT_DELIVERED' };
    for (const r of [
      await refund(body),
      await refund(body, 'f'.repeat(64)),
      await refund({ ...body, purchase_id: 'e'.repeat(64) }, p.claim_token),
    ]) {
      t.is(r.status, 404);
      t.is(r.body.error.code, 'REPORT_NOT_FOUND');
    }
    const leaky = await refund({ ...body, message: `claim ${p.claim_token}` }, p.claim_token);
    t.is(leaky.status, 422);
    t.is(leaky.body.error.code, 'REFUND_MESSAGE_INVALID');
    t.false(JSON.stringify(leaky.body).includes(p.claim_token));
    const unpaid = await quoted();
    const nothing = await refund({ purchase_id: unpaid.purchase_id, reason: 'OTHER' }, unpaid.claim_token);
    t.is(nothing.status, 409);
    t.is(nothing.body.error.code, 'REFUND_NOTHING_CHARGED');
    const unknownField = await refund({ ...body, amount: '1' }, p.claim_token);
    t.is(unknownField.status, 400);
    t.is(unknownField.body.error.code, 'UNKNOWN_FIELD');
    const badReason = await refund({ ...body, reason: 'CHANGED_MY_MIND' }, p.claim_token);
    t.is(badReason.status, 422);
    t.is((await status(p.purchase_id, p.claim_token)).body.error.code, 'REFUND_NOT_FOUND');
  },
);

test.serial('the operator lists, approves and records a refund paid by hand; the buyer then reads it', async (t) => {
  const p = await paidPurchase(2);
  t.is((await refund({ purchase_id: p.purchase_id, reason: 'NOT_DELIVERED' }, p.claim_token)).status, 201);
  const unrequested = await paidPurchase(3);
  await w.service!.stop(); // the embedded store admits one process at a time
  const ops = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      { ...w.env, LOG_LEVEL: 'silent' },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  try {
    const listed = await ops('refunds', '--json');
    t.is(listed.code, 0, listed.err);
    const open = JSON.parse(listed.out).refunds as any[];
    t.true(open.some((r) => r.purchase_id === p.purchase_id && r.status === 'requested'));
    const early = await ops(
      'refunds',
      'paid',
      p.purchase_id,
      '--tx',
      `0x${'56'.repeat(32)}`,
      '--amount',
      '20000',
      '--note',
      'too early',
      '--operator',
      'ana',
    );
    t.is(early.code, 1);
    t.regex(early.err, /REFUND_NOT_APPROVED/);
    const approved = await ops(
      'refunds',
      'review',
      p.purchase_id,
      '--decision',
      'approve',
      '--note',
      'no delivery recorded for this charge',
      '--operator',
      'ana',
    );
    t.is(approved.code, 0, approved.err);
    t.regex(approved.out, /requested → approved by ana/);
    const paid = await ops(
      'refunds',
      'paid',
      p.purchase_id,
      '--tx',
      `0x${'56'.repeat(32)}`,
      '--amount',
      '20000',
      '--note',
      'sent from the treasury wallet',
      '--operator',
      'ana',
    );
    t.is(paid.code, 0, paid.err);
    const usage = await ops(
      'refunds',
      'review',
      p.purchase_id,
      '--decision',
      'maybe',
      '--note',
      'x',
      '--operator',
      'ana',
    );
    t.is(usage.code, 2);
    const rest = JSON.parse((await ops('refunds', '--json')).out).refunds as any[];
    t.false(
      rest.some((r) => r.purchase_id === p.purchase_id),
      'a paid request leaves the open list',
    );
    const everything = JSON.parse((await ops('refunds', '--all', '--json')).out).refunds as any[];
    t.is(everything.find((r) => r.purchase_id === p.purchase_id)?.status, 'paid');

    // audit checks refund streams against their purchases: clean now, and a forged charge is found.
    const clean = await ops('audit');
    t.is(clean.code, 0, clean.out + clean.err);
    t.regex(clean.out, /audited 2 refund request stream\(s\): no violations/);
    const store = await openStore(w.env.EVENT_STORE_URL!);
    try {
      await store.append(
        refundStream(unrequested.purchase_id),
        [
          {
            id: randomUUID(),
            type: 'RefundRequested',
            data: {
              purchase_id: unrequested.purchase_id,
              reason: 'OTHER',
              message: '',
              at: new Date().toISOString(),
              charge: {
                purchase_status: 'delivered',
                amount_micro: '999999',
                payer: w.devnet.buyers[3]!.address,
                transaction: unrequested.transaction,
              },
            },
          },
        ],
        'no_stream',
      );
    } finally {
      await store.close();
    }
    const found = await ops('audit');
    t.is(found.code, 1);
    t.regex(found.out, /requested charge 999999 is not the purchase's 20000/);
  } finally {
    await w.start();
  }
  const view = await status(p.purchase_id, p.claim_token);
  t.is(view.status, 200);
  t.is(view.body.status, 'paid');
  t.is(view.body.review.decision, 'approved');
  t.deepEqual(view.body.refund, {
    transaction: `0x${'56'.repeat(32)}`,
    amount_micro: '20000',
    at: view.body.refund.at,
  });
});

test.after.always('no claim or payment reached a log line', (t) => {
  if (!w) return;
  assertNoSecretsLogged(t, w.logs(), { claims: secrets, paymentHeaders });
});
