import test from 'ava';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS } from '../../src/devnet/accounts.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { FAST_PAY_TO, useFastWorld } from '../support/fast-world.js';
import { DECLARED, getReport, postQuote, quoteAndOffer } from '../support/money-env.js';
import { signPayment } from '../support/pay.js';
import type { SettlementScript } from '../support/scripted-settlement.js';
import { noteStreamReads } from '../support/stream-reads.js';

// Rules of the quote and the claim at the report URL, through the real routes on the fast world (memory
// store, scripted settlement, the test publishers on loopback; test/support/fast-world.ts): none of them
// is about the chain, so none waits for a devnet (they ran on it in test/money/happy-path.test.ts and
// refusals.test.ts).

// Only the paid redemption below settles: it sets the outcome and the transfer the script answers.
const script: SettlementScript = { used: [false] };
const world = useFastWorld(script);

test('wrong claim, missing claim and unknown id answer the same 404', async (t) => {
  const q = await postQuote(world.url, {
    resource: DECLARED,
    purpose: 'search',
    tier: 'deep',
    max_total_micro: '50000',
  });
  t.is(q.status, 200);
  const wrong = await getReport(world.url, q.body.report_url, { 'x-service-claim': 'f'.repeat(64) });
  const missing = await getReport(world.url, q.body.report_url, {});
  const unknown = await getReport(world.url, `/v1/rights/reports/${'a'.repeat(64)}`, {
    'x-service-claim': q.body.claim_token,
  });
  for (const r of [wrong, missing, unknown]) {
    t.is(r.status, 404);
    t.deepEqual(r.body, {
      error: { code: 'REPORT_NOT_FOUND', message: 'no report for this id and claim', details: {} },
    });
  }
});

test('a price above max_total_micro is refused before anything is fetched or stored', async (t) => {
  const before = world.origins.requests.length;
  const q = await postQuote(world.url, {
    resource: 'https://pub.example/articles/two',
    purpose: 'ai-input',
    tier: 'deep',
    max_total_micro: '49999',
  });
  t.is(q.status, 422);
  t.is(q.body.error.code, 'PRICE_EXCEEDS_BUDGET');
  t.is(world.origins.requests.length, before);
});

test('an extra property in the quote request is refused', async (t) => {
  const q = await postQuote(world.url, {
    resource: DECLARED,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
    surprise: 1,
  });
  t.is(q.status, 400);
  t.is(q.body.error.code, 'UNKNOWN_FIELD');
});

test('an Idempotency-Key retry returns the same quote and claim', async (t) => {
  const headers = { 'idempotency-key': 'retry-key-0123456789abcdef' };
  const body = { resource: DECLARED, purpose: 'ai-index', tier: 'fresh', max_total_micro: '100000' };
  const a = await postQuote(world.url, body, headers);
  const b = await postQuote(world.url, body, headers);
  t.is(a.status, 200);
  t.deepEqual(b.body, a.body);
  const c = await postQuote(world.url, body);
  t.not(c.body.purchase_id, a.body.purchase_id);
  t.not(c.body.claim_token, a.body.claim_token);
});

// The two tests that count stream reads wrap the world's one store: serial, so neither restores the other's wrap.
test.serial('a quote of a fresh key reads no stream; an Idempotency-Key quote reads its stream once', async (t) => {
  // Only this quote's purchase is counted: the file's other tests read the same store.
  const reads = noteStreamReads(world.store);
  const body = { resource: DECLARED, purpose: 'ai-index', tier: 'fresh', max_total_micro: '100000' };
  try {
    const fresh = await postQuote(world.url, body);
    t.is(fresh.status, 200);
    t.is(reads.count(fresh.body.purchase_id), 0, 'a fresh 256-bit key has no stream to read');
    const keyed = await postQuote(world.url, body, { 'idempotency-key': 'read-once-key-0123456789abcdef' });
    t.is(keyed.status, 200);
    t.is(reads.count(keyed.body.purchase_id), 1, 'read once: the look-up, not again to decide');
  } finally {
    reads.restore();
  }
});

test('no verifiable declaration: available false, charge 0, no stream', async (t) => {
  const eventsBefore = (await world.store.readAll(0n, 100_000)).length;
  const fetchesBefore = world.origins.requests.filter((r) => r.host === 'bare.example').length;
  const q = await postQuote(world.url, {
    resource: 'https://bare.example/page',
    purpose: 'ai-train',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  t.is(q.status, 200);
  t.deepEqual(Object.keys(q.body).sort(), [
    'available',
    'charge_micro',
    'input_sha256',
    'legal_clearance',
    'purpose',
    'reason',
    'resource',
    'signals_preview',
    'version',
  ]);
  t.false(q.body.available);
  t.is(q.body.reason, 'NO_VERIFIABLE_DECLARATION');
  t.is(q.body.charge_micro, '0');
  t.is(q.body.claim_token, undefined);
  t.true(
    world.origins.requests.filter((r) => r.host === 'bare.example').length > fetchesBefore,
    'the resource was really inspected',
  );
  // The file's other tests append beside this one: what matters is that nothing was appended for this quote.
  const events = await world.store.readAll(0n, 100_000);
  t.true(events.length >= eventsBefore);
  t.false(
    events.some((e) => JSON.stringify(e.data).includes('bare.example')),
    'nothing was appended for it',
  );
});

test.serial('a paid redemption of a standing offer reads its stream once; later steps append unread', async (t) => {
  const { q, claim, paymentRequired } = await quoteAndOffer(world.url);
  const buyer = privateKeyToAccount(DEV_KEYS[3]! as `0x${string}`);
  const tx = `0x${'ab'.repeat(32)}` as const;
  script.settle = { kind: 'success', transaction: tx, payer: buyer.address, amount: q.charge_micro };
  script.transfer = {
    transaction: tx,
    from: buyer.address,
    to: getAddress(FAST_PAY_TO),
    value: BigInt(q.charge_micro),
    block: 101n,
    asset: world.deps.terms.asset,
    network: world.deps.terms.network,
  };
  const payment = await signPayment(DEV_KEYS[3]! as `0x${string}`, paymentRequired);
  // Only this purchase's stream: the file's other tests and the coverage follower read the same store.
  const reads = noteStreamReads(world.store);
  let paid: Awaited<ReturnType<typeof getReport>>;
  try {
    paid = await getReport(world.url, q.report_url, { ...claim, 'payment-signature': payment });
    t.is(paid.status, 200, paid.text);
  } finally {
    reads.restore();
  }
  t.is(
    reads.count(q.purchase_id),
    1,
    'the report URL reads the stream once; the offer standing is checked by the checkpoint append',
  );
  // The paid body is sent as its canonical text, the same bytes as the stored delivery served to a retry.
  t.is(paid.headers.get('content-type'), 'application/json; charset=utf-8');
  const again = await getReport(world.url, q.report_url, { ...claim, 'payment-signature': payment });
  t.is(again.text, paid.text);
  t.is(paid.text, canonicalJson(JSON.parse(paid.text)));
});
