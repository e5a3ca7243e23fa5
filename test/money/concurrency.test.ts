import test from 'ava';
import { reportRow } from '../../projections/queries/purchases.js';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { useWorld } from '../support/world.js';

const claims: string[] = [];
const paymentHeaders: string[] = [];
const w = useWorld();

test.serial('50 concurrent identical PAYMENT-SIGNATURE requests: one transfer, 50 identical deliveries', async (t) => {
  const q = (
    await postQuote(w.url, { resource: DECLARED, purpose: 'ai-index', tier: 'fresh', max_total_micro: '20000' })
  ).body;
  claims.push(q.claim_token);
  const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  const buyer = w.devnet.buyers[0]!;
  const before = await w.devnet.balanceOf(buyer.address);
  const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
  paymentHeaders.push(header);

  const answers = await Promise.all(
    Array.from({ length: 50 }, () =>
      getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header }),
    ),
  );
  t.deepEqual(
    answers.map((a) => a.status),
    Array(50).fill(200),
    answers.find((a) => a.status !== 200)?.text,
  );
  t.is(new Set(answers.map((a) => a.text)).size, 1, 'every answer is the same delivery');
  t.is(new Set(answers.map((a) => a.headers.get('payment-response'))).size, 1);
  t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 1, 'exactly one on-chain transfer');
  t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);

  const types = (await w.service!.store.readStream(`purchase-${q.purchase_id}`)).map((e) => e.type);
  t.deepEqual(types, ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast', 'Settled', 'Delivered']);
  await w.service!.readModels.waitFor(
    (await w.service!.store.readStream(`purchase-${q.purchase_id}`)).at(-1)!.position,
  );
  const row = await reportRow(w.service!.readModels.db, q.purchase_id);
  t.is(row?.status, 'delivered');
  t.is(row?.settled_amount_micro, '20000');
});

test.serial('the suite logged no claim, payment signature or authorization', (t) => {
  assertNoSecretsLogged(t, w.logs(), { claims, paymentHeaders });
});
