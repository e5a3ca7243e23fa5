import test from 'ava';
import { randomBytes } from 'node:crypto';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';
import { useWorld } from '../support/world.js';
import { relayerPool } from '../support/relayer-pool.js';
import { assertNoSecretsLogged } from '../support/secrets.js';
import { requiredServerUrl } from '../support/required-server.js';

// Two service processes on one PostgreSQL store: the checkpoint race is decided by the database's
// expected-revision check, and the loser in the other process waits for the winner's delivery.
const PG = requiredServerUrl(test, 'PG_TEST_URL', 'cross-process race on PostgreSQL', { requiredInCi: true });

const claims: string[] = [];
const paymentHeaders: string[] = [];

if (PG) {
  const w = useWorld({ service: false, eventStoreUrl: `${PG}?schema=money_${randomBytes(4).toString('hex')}` });

  test.serial('50 identical payments spread over two processes: one transfer, 50 identical deliveries', async (t) => {
    // Each instance leases its own relayer key (a lone RELAYER_PRIVATE_KEY is one instance's only).
    const pool = await relayerPool(w.devnet.rpcUrl, 2);
    const a = await w.startProcess({ ...pool.env });
    const b = await w.startProcess({ ...pool.env });
    const q = (
      await postQuote(a.url, { resource: DECLARED, purpose: 'ai-input', tier: 'deep', max_total_micro: '50000' })
    ).body;
    claims.push(q.claim_token);
    const offer = await getReport(b.url, q.report_url, { 'x-service-claim': q.claim_token });
    t.is(offer.status, 402);
    const buyer = w.devnet.buyers[2]!;
    const before = await w.devnet.balanceOf(buyer.address);
    const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
    paymentHeaders.push(header);
    // A request whose settlement is still running when it gives up waiting answers 409
    // PURCHASE_IN_PROGRESS with Retry-After (docs/wire.md §6); a buyer sends the same request again, and
    // so does this one, never with a new signature. What must hold is the outcome: one transfer, and the
    // same delivery for all 50.
    let retried = 0;
    const redeem = async (url: string) => {
      for (let attempt = 0; ; attempt++) {
        const r = await getReport(url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header });
        if (r.status !== 409 || r.body?.error?.code !== 'PURCHASE_IN_PROGRESS' || attempt >= 5) return r;
        retried++;
        await new Promise((resolve) => setTimeout(resolve, Number(r.headers.get('retry-after') ?? 2) * 1000));
      }
    };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(i % 2 ? a.url : b.url)));
    t.log(`${retried} answer(s) were PURCHASE_IN_PROGRESS and retried with the same request`);
    t.deepEqual(
      answers.map((x) => x.status),
      Array(50).fill(200),
      answers.find((x) => x.status !== 200)?.text,
    );
    t.is(new Set(answers.map((x) => x.text)).size, 1);
    t.is((await w.devnet.transfers(buyer.address, w.devnet.payTo)).length, 1);
    t.is(await w.devnet.balanceOf(buyer.address), before - 50_000n);
  });

  test.serial('the suite logged no claim, payment signature or authorization', (t) => {
    assertNoSecretsLogged(t, w.allLogs(), { claims, paymentHeaders });
  });
}
