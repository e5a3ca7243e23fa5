import test from 'ava';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { signPayment, boundNonceFrom, type PayOverrides } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';

const claims: string[] = [];
const paymentHeaders: string[] = [];
const w = useWorld();

async function quoteAndOffer(resource = DECLARED) {
  const q = await postQuote(w.url, { resource, purpose: 'ai-input', tier: 'fresh', max_total_micro: '1000000' });
  claims.push(q.body.claim_token);
  const offer = await getReport(w.url, q.body.report_url, { 'x-service-claim': q.body.claim_token });
  return { q: q.body, prHeader: offer.headers.get('payment-required')! };
}

const OTHER_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const now = () => Math.floor(Date.now() / 1000);

test.serial(
  'every wrong payment is refused with its own code, nothing is charged, and the right one still pays',
  async (t) => {
    const { q, prHeader } = await quoteAndOffer();
    const other = await quoteAndOffer('https://pub.example/articles/two');
    const buyer = w.devnet.buyers[1]!;
    const stranger = generatePrivateKey();
    const cases: [string, PayOverrides, string][] = [
      ['random nonce (unmodified x402 client)', { nonce: 'random' }, 'NONCE_NOT_BOUND'],
      ['wrong recipient', { to: w.devnet.buyers[3]!.address }, 'RECIPIENT_MISMATCH'],
      ['lower amount', { value: '19999' }, 'AMOUNT_BELOW_PRICE'],
      ['higher amount', { value: '20001' }, 'AMOUNT_ABOVE_PRICE'],
      ['other network', { network: 'eip155:84532' }, 'NETWORK_MISMATCH'],
      ['other asset', { asset: OTHER_USDC }, 'ASSET_MISMATCH'],
      ['expired window', { validBefore: String(now() - 10) }, 'PAYMENT_WINDOW_EXPIRED'],
      ['signature by another key', { signerKey: stranger }, 'SIGNATURE_INVALID'],
      [
        'payment bound to another report',
        { nonce: boundNonceFrom(decodePaymentRequiredHeader(other.prHeader)) },
        'NONCE_BOUND_TO_OTHER_REQUEST',
      ],
      ['window far beyond maxTimeoutSeconds', { validBefore: String(now() + 86_400) }, 'PAYMENT_WINDOW_TOO_LONG'],
    ];
    const before = await w.devnet.balanceOf(buyer.address);
    const payToBefore = await w.devnet.balanceOf(w.devnet.payTo);
    const codes = new Set<string>();
    for (const [name, overrides, code] of cases) {
      const header = await signPayment(buyer.privateKey, prHeader, overrides);
      paymentHeaders.push(header);
      const r = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header });
      t.is(r.status, 402, name);
      t.is(r.body.error.code, code, name);
      t.is(decodePaymentRequiredHeader(r.headers.get('payment-required')!).error, code, name);
      codes.add(code);
    }
    t.is(codes.size, cases.length, 'each refusal has its own code');

    // An empty wallet passes every local check and is refused by settlement verification.
    const poor = generatePrivateKey();
    const poorHeader = await signPayment(poor, prHeader);
    paymentHeaders.push(poorHeader);
    const r = await getReport(w.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': poorHeader,
    });
    t.is(r.status, 402);
    t.is(r.body.error.code, 'PAYMENT_REJECTED');
    t.is(r.body.error.details.reason, 'invalid_exact_evm_insufficient_balance');

    const garbage = await getReport(w.url, q.report_url, {
      'x-service-claim': q.claim_token,
      'payment-signature': 'not*base64',
    });
    t.is(garbage.status, 400);
    t.is(garbage.body.error.code, 'PAYMENT_SIGNATURE_MALFORMED');

    t.is(await w.devnet.balanceOf(buyer.address), before);
    t.is(await w.devnet.balanceOf(w.devnet.payTo), payToBefore);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 0);
    const stream = await w.service!.store.readStream(`purchase-${q.purchase_id}`);
    t.deepEqual(
      stream.map((e) => e.type),
      ['Quoted', 'Offered'],
      'refusals appended nothing',
    );

    // Nothing was appended by the refusals: the correct payment still goes through, once.
    const good = await signPayment(buyer.privateKey, prHeader);
    paymentHeaders.push(good);
    const paid = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': good });
    t.is(paid.status, 200, paid.text);
    t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);

    // A different authorization for an already paid purchase is not charged either.
    const second = await signPayment(w.devnet.buyers[2]!.privateKey, prHeader);
    paymentHeaders.push(second);
    const dup = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': second });
    t.is(dup.status, 200);
    t.is(dup.text, paid.text);
    t.is((await w.devnet.transfers(w.devnet.buyers[2]!.address, w.devnet.payTo)).length, 0);
    t.truthy(privateKeyToAccount(stranger).address);
  },
);

// "No verifiable declaration: available false, charge 0, no stream" is a quote rule with no chain in it:
// it runs on the fast world (test/money-path/quote-rules.test.ts).

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
