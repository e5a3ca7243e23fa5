import test from 'ava';
import { useFastWorld } from '../support/fast-world.js';
import { DECLARED, getReport, postQuote } from '../support/money-env.js';

// Rules of the quote and the claim at the report URL, through the real routes on the fast world (memory
// store, scripted settlement, the test publishers on loopback; test/support/fast-world.ts): none of them
// is about the chain, so none waits for a devnet (they ran on it in test/money/happy-path.test.ts and
// refusals.test.ts).

const world = useFastWorld();

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
  const events = await world.store.readAll(0n, 100_000);
  t.is(events.length, eventsBefore, 'nothing was appended');
  t.false(events.some((e) => JSON.stringify(e.data).includes('bare.example')));
});
