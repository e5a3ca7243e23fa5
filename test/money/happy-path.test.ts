import test from 'ava';
import { createHash } from 'node:crypto';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { isRight } from 'fp-ts/lib/Either.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { AvailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { useWorld } from '../support/world.js';

const w = useWorld();

// The quote and claim rules that need no chain run on the fast world: test/money-path/quote-rules.test.ts.

const digest = (v: unknown) => createHash('sha256').update(canonicalJson(v), 'utf8').digest('hex');

test.serial(
  'quote → 402 → pay → 200 moves exactly the price, and the report, evidence and proof verify with the published key',
  async (t) => {
    const caps = await (await fetch(`${w.url}/v1/capabilities`)).json();
    t.true(isRight(Capabilities.decode(caps)));
    const key = (caps as any).evidence.keys[0].public_key as string;

    const q = await postQuote(w.url, {
      resource: DECLARED,
      purpose: 'ai-input',
      tier: 'fresh',
      max_total_micro: '20000',
    });
    t.is(q.status, 200);
    t.true(isRight(AvailableQuote.decode(q.body)), JSON.stringify(q.body));
    t.is(q.body.charge_micro, '20000');
    t.is(q.body.decision_preview.decision, 'ALLOW_DECLARED');
    t.is(q.body.report_url, `/v1/rights/reports/${q.body.purchase_id}`);
    t.true(await verifyEnvelope(q.body.signed_quote, key));

    const offer = await getReport(w.url, q.body.report_url, { 'x-service-claim': q.body.claim_token });
    t.is(offer.status, 402);
    t.is(offer.headers.get('cache-control'), 'no-store');
    t.true(isRight(PaymentRequiredBody.decode(offer.body)));
    const prHeader = offer.headers.get('payment-required')!;
    const pr = decodePaymentRequiredHeader(prHeader);
    const req = pr.accepts[0]!;
    t.is(req.amount, '20000');
    t.is(req.payTo, w.devnet.payTo);
    t.deepEqual(req.extra, { name: 'USD Coin', version: '2' });
    // The buyer recomputes the bound nonce from its own secret and the quote.
    const binding = (pr.extensions as any)['service-request-binding'].info;
    t.is(
      binding.nonce,
      boundNonce({ resource: q.body.resource, key: q.body.claim_token, input_sha256: q.body.input_sha256 }),
    );
    const receipt = (pr.extensions as any)['service-offer-receipt'].info.receipt;
    t.true(await verifyEnvelope(receipt, key));
    t.is(receipt.payload.amount, '20000');
    t.is(receipt.payload.nonce, binding.nonce);

    // A second unpaid GET repeats the same offer (one Offered event).
    const again = await getReport(w.url, q.body.report_url, { 'x-service-claim': q.body.claim_token });
    t.is(again.headers.get('payment-required'), prHeader);

    const buyer = w.devnet.buyers[0]!;
    const [buyerBefore, payToBefore] = [
      await w.devnet.balanceOf(buyer.address),
      await w.devnet.balanceOf(w.devnet.payTo),
    ];
    const signature = await signPayment(buyer.privateKey, prHeader);
    const paid = await getReport(w.url, q.body.report_url, {
      'x-service-claim': q.body.claim_token,
      'payment-signature': signature,
    });
    t.is(paid.status, 200, paid.text);
    t.true(isRight(PaidReportResponse.decode(paid.body)), paid.text);
    t.is(await w.devnet.balanceOf(buyer.address), buyerBefore - 20_000n);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore + 20_000n);

    const settle = decodePaymentResponseHeader(paid.headers.get('payment-response')!);
    t.true(settle.success);
    t.is(settle.transaction, paid.body.payment_settlement.transaction);
    t.is(settle.payer, privateKeyToAccount(buyer.privateKey).address);

    const body = paid.body;
    t.is(body.report.sku, 'rights.preflight.v1');
    t.false(body.legal_clearance);
    t.false(body.report.resources[0].legal_clearance);
    t.is(body.report.resources[0].decision, 'ALLOW_DECLARED');
    // Reasons are the evaluator's records (docs/wire.md §5), each one found in the signed reading.
    const reasons = body.report.resources[0].reasons as Record<string, unknown>[];
    t.true(reasons.length > 0);
    const signedReasons = body.evidence.payload.resources[0].reading.purposes
      .find((p: { purpose: string }) => p.purpose === 'ai-input')
      .tokens.flatMap((tk: { reasons: unknown[] }) => tk.reasons);
    for (const r of reasons) {
      t.is(typeof r, 'object');
      t.regex(String(r.rule), /^[a-z-]+$/);
      t.true(signedReasons.some((s: unknown) => JSON.stringify(s) === JSON.stringify(r)));
    }
    t.true(await verifyEnvelope(body.evidence, key));
    t.true(await verifyEnvelope(body.delivery_proof, key));
    const proof = body.delivery_proof.payload;
    t.is(proof.report_sha256, digest(body.report));
    t.is(proof.evidence_sha256, digest(body.evidence));
    t.is(proof.purchase_id, q.body.purchase_id);
    t.deepEqual(proof.settlement, {
      network: 'eip155:8453',
      transaction: settle.transaction,
      payer: settle.payer,
      amount: '20000',
      asset: req.asset,
      pay_to: req.payTo,
      nonce: binding.nonce,
    });
    // Tampering is detected.
    t.false(
      await verifyEnvelope({ ...body.evidence, payload: { ...body.evidence.payload, legal_clearance: true } }, key),
    );

    // After delivery the same claim re-reads the stored delivery, with or without the payment, no charge.
    const reread = await getReport(w.url, q.body.report_url, { 'x-service-claim': q.body.claim_token });
    t.is(reread.status, 200);
    t.is(reread.text, paid.text);
    const replay = await getReport(w.url, q.body.report_url, {
      'x-service-claim': q.body.claim_token,
      'payment-signature': signature,
    });
    t.is(replay.text, paid.text);
    t.is(await w.devnet.balanceOf(buyer.address), buyerBefore - 20_000n);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 1);
  },
);
