import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { RefundView } from '@rights-preflight/wire/contract/refund.js';
import { randomUUID } from 'node:crypto';
import { runCli } from '../../ops/cli.js';
import { openStore } from '../../src/store/open/open.js';
import { refundStream } from '../../streams/refund/events.js';
import { signPayment } from '../support/pay.js';
import { devnetWallet } from '../support/devnet-transfer.js';
import { ROLE_KEYS } from '../../src/devnet/accounts.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { useWorld } from '../support/world.js';

// Refund requests end to end (spec §3): a real paid purchase on the devnet, the buyer's request over
// HTTP with its claim, then the operator's review and recorded refund through `npm run ops -- refunds`
// on the same store. No step moves money: the balances after the request are the balances after payment.

const w = useWorld();

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

test.serial(
  'the operator lists and approves; `refunds paid` records only the refund transfer the chain shows; ' +
    'audit re-checks it; the buyer then reads it',
  async (t) => {
    const p = await paidPurchase(2);
    t.is((await refund({ purchase_id: p.purchase_id, reason: 'NOT_DELIVERED' }, p.claim_token)).status, 201);
    // A second refund to the same payer of the same amount: only "already used" tells its hash apart.
    const twin = await paidPurchase(2);
    t.is((await refund({ purchase_id: twin.purchase_id, reason: 'OTHER' }, twin.claim_token)).status, 201);
    const unrequested = await paidPurchase(3);
    await w.service!.stop(); // the embedded store admits one process at a time
    const ops = async (args: string[], env: Record<string, string> = {}) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(
        args,
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        { ...w.env, LOG_LEVEL: 'silent', ...env },
      );
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const paidWith = (id: string, tx: string, amount = '20000', env: Record<string, string> = {}) =>
      ops(
        [
          'refunds',
          'paid',
          id,
          '--tx',
          tx,
          '--amount',
          amount,
          '--note',
          'sent from the treasury',
          '--operator',
          'ana',
        ],
        env,
      );
    const statusOf = async (id: string) =>
      (JSON.parse((await ops(['refunds', '--all', '--json'])).out).refunds as any[]).find((r) => r.purchase_id === id)
        ?.status;
    let realRefund = '';
    try {
      const listed = await ops(['refunds', '--json']);
      t.is(listed.code, 0, listed.err);
      const open = JSON.parse(listed.out).refunds as any[];
      t.true(open.some((r) => r.purchase_id === p.purchase_id && r.status === 'requested'));
      const early = await paidWith(p.purchase_id, `0x${'56'.repeat(32)}`);
      t.is(early.code, 1);
      t.regex(early.err, /REFUND_NOT_APPROVED/);
      for (const id of [p.purchase_id, twin.purchase_id]) {
        const approved = await ops([
          'refunds',
          'review',
          id,
          '--decision',
          'approve',
          '--note',
          'no delivery recorded for this charge',
          '--operator',
          'ana',
        ]);
        t.is(approved.code, 0, approved.err);
        t.regex(approved.out, /requested → approved by ana/);
      }

      // Real transactions on the devnet, sent from the recipient's wallet (the treasury here).
      const buyer = w.devnet.buyers[2]!.address;
      const treasury = devnetWallet(w.devnet.rpcUrl, ROLE_KEYS.payTo);
      const notATransfer = await treasury.eth(buyer, 1n);
      const toSomeoneElse = await treasury.usdc(w.devnet.buyers[0]!.address, 20_000n);
      const wrongAmount = await treasury.usdc(buyer, 19_999n);
      realRefund = await treasury.usdc(buyer, 20_000n);
      for (const [tx, code, what] of [
        [`0x${'56'.repeat(32)}`, 'REFUND_TX_NOT_FOUND', 'a hash the chain does not know'],
        [notATransfer, 'REFUND_TX_NOT_A_TRANSFER', 'an ETH transfer'],
        [toSomeoneElse, 'REFUND_TX_WRONG_RECIPIENT', 'a USDC transfer to another address'],
        [unrequested.transaction, 'REFUND_TX_WRONG_RECIPIENT', "another purchase's payment"],
        [wrongAmount, 'REFUND_TX_WRONG_AMOUNT', 'a transfer of another amount'],
      ] as const) {
        const refused = await paidWith(p.purchase_id, tx);
        t.is(refused.code, 1, what);
        t.regex(refused.err, new RegExp(`refused ${code}`), what);
      }
      t.is(await statusOf(p.purchase_id), 'approved', 'nothing was recorded');
      const fromElsewhere = await paidWith(p.purchase_id, realRefund, '20000', {
        REFUND_SENDERS: w.devnet.buyers[0]!.address,
      });
      t.is(fromElsewhere.code, 1);
      t.regex(fromElsewhere.err, /refused REFUND_TX_WRONG_SENDER/);
      const noChain = await paidWith(p.purchase_id, realRefund, '20000', { RPC_URL: '' });
      t.is(noChain.code, 2, 'no chain to read: the command cannot run');
      t.regex(noChain.err, /REFUND_CHAIN_UNAVAILABLE/);

      const paid = await paidWith(p.purchase_id, realRefund, '20000', { REFUND_SENDERS: treasury.address });
      t.is(paid.code, 0, paid.err);
      t.regex(paid.out, /approved → paid by ana/);
      const reused = await paidWith(twin.purchase_id, realRefund);
      t.is(reused.code, 1);
      t.regex(reused.err, new RegExp(`refused REFUND_TX_ALREADY_USED: .*refund-${p.purchase_id}`));
      t.is(await statusOf(twin.purchase_id), 'approved', 'nothing was recorded');

      const usage = await ops([
        'refunds',
        'review',
        p.purchase_id,
        '--decision',
        'maybe',
        '--note',
        'x',
        '--operator',
        'ana',
      ]);
      t.is(usage.code, 2);
      const rest = JSON.parse((await ops(['refunds', '--json'])).out).refunds as any[];
      t.false(
        rest.some((r) => r.purchase_id === p.purchase_id),
        'a paid request leaves the open list',
      );
      t.is(await statusOf(p.purchase_id), 'paid');

      // audit checks refund streams against their purchases and paid ones on the chain: clean now; a
      // forged charge and a forged payment record (a transfer of another amount) are found.
      const clean = await ops(['audit']);
      t.is(clean.code, 0, clean.out + clean.err);
      t.regex(clean.out, /audited 3 refund request stream\(s\): no violations/);
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
        const twinEvents = await store.readStream(refundStream(twin.purchase_id));
        await store.append(
          refundStream(twin.purchase_id),
          [
            {
              id: randomUUID(),
              type: 'RefundPaymentRecorded',
              data: {
                transaction: wrongAmount,
                amount_micro: '20000',
                note: 'forged',
                operator: 'mallory',
                at: new Date().toISOString(),
              },
            },
          ],
          twinEvents.at(-1)!.revision,
        );
      } finally {
        await store.close();
      }
      const found = await ops(['audit']);
      t.is(found.code, 1);
      t.regex(found.out, /requested charge 999999 is not the purchase's 20000/);
      t.regex(found.out, new RegExp(`refund-${twin.purchase_id}:\\n.*chain +REFUND_TX_WRONG_AMOUNT`));
      t.notRegex(found.out, new RegExp(`refund-${p.purchase_id}:`), 'the real refund still passes');
    } finally {
      await w.start();
    }
    const view = await status(p.purchase_id, p.claim_token);
    t.is(view.status, 200);
    t.is(view.body.status, 'paid');
    t.is(view.body.review.decision, 'approved');
    t.deepEqual(view.body.refund, { transaction: realRefund, amount_micro: '20000', at: view.body.refund.at });
  },
);

test.after.always('no claim or payment reached a log line', (t) => {
  if (!w.dataDir) return; // the world did not start
  assertNoSecretsLogged(t, w.logs(), { claims: secrets, paymentHeaders });
});
