import test from 'ava';
import { devnetRpc } from '../support/devnet-rpc.js';
import { auditCli } from '../support/audit-cli.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signPayment } from '../support/pay.js';
import { DECLARED, getReport, moneyWorld, postQuote } from '../support/money-env.js';
import { assertNoSecretsLogged } from '../support/secrets.js';

// A relayer without ETH for gas (docs/decisions.md, "Relayer health and a pool of relayer keys"): /readyz is 503 naming
// relayer_funds, and a new offer is refused with RELAYER_UNDERFUNDED (503, Retry-After) before anyone signs: nothing is
// stored and no balance moves. Funded again, the same purchase is offered, paid and delivered; the ledger audits clean.

const rpc = devnetRpc;

test('no relayer ETH: /readyz 503 with the reason, the offer refused with its code, no balance moved', async (t) => {
  const w = await moneyWorld();
  t.teardown(() => w.close());
  const poor = generatePrivateKey();
  const relayer = privateKeyToAccount(poor).address;
  await w.start({ env: { RELAYER_PRIVATE_KEY: poor, RELAYER_MIN_SETTLEMENTS: '10' } });

  const ready = await fetch(`${w.url}/readyz`);
  t.is(ready.status, 503);
  t.deepEqual(await ready.json(), {
    status: 'not_ready',
    phase: 'ready',
    failing: [{ check: 'relayer_funds', reason: 'insufficient_funds' }],
  });
  t.regex(w.logs(), /relayer_funds: relayer 0x[0-9a-fA-F]{40} holds 0 ETH; 10 settlements need/);

  const buyer = w.devnet.buyers[0]!;
  const balances = async () => ({
    buyer: await w.devnet.balanceOf(buyer.address),
    payTo: await w.devnet.balanceOf(w.devnet.payTo),
    relayerEth: BigInt((await rpc(w.devnet.rpcUrl, 'eth_getBalance', [relayer, 'latest'])) as string),
  });
  const before = await balances();
  const q = (
    await postQuote(w.url, { resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' })
  ).body;
  const refused = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  t.is(refused.status, 503);
  t.is(refused.body.error.code, 'RELAYER_UNDERFUNDED');
  t.is(refused.headers.get('retry-after'), '30');
  t.is(refused.headers.get('payment-required'), null, 'no offer to sign');
  const events = await w.service!.store.readStream(`purchase-${q.purchase_id}`);
  t.deepEqual(
    events.map((e) => e.type),
    ['Quoted'],
    'nothing was offered or stored',
  );
  t.deepEqual(await balances(), before, 'no balance moved');

  // Funded for the next settlements (0.1 ETH), the offer is made once the one-second cache has passed.
  await rpc(w.devnet.rpcUrl, 'hardhat_setBalance', [relayer, '0x16345785D8A0000']);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  t.is((await fetch(`${w.url}/readyz`)).status, 200);
  const offer = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token });
  t.is(offer.status, 402);
  const header = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
  const paid = await getReport(w.url, q.report_url, { 'x-service-claim': q.claim_token, 'payment-signature': header });
  t.is(paid.status, 200, paid.text);
  const after = await balances();
  t.is(after.buyer, before.buyer - 20_000n);
  t.is(after.payTo, before.payTo + 20_000n);
  t.true(after.relayerEth < 0x16345785d8a0000n, 'the relayer paid the gas');
  t.deepEqual(
    (await w.service!.store.readStream(`purchase-${q.purchase_id}`)).map((e) => e.type),
    ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'SettlementBroadcast', 'Settled', 'Delivered'],
  );
  assertNoSecretsLogged(t, w.logs(), { claims: [q.claim_token], paymentHeaders: [header] });
  t.false(w.logs().includes(poor.slice(2)), 'the key itself is never logged');

  await w.service!.stop();
  const audit = await auditCli(w.env);
  t.is(audit.code, 0, audit.text);
  t.regex(audit.text, /audited 1 purchase stream\(s\) .*: no violations/);
});
