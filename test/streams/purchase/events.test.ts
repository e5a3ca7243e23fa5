import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import type * as t_ from 'io-ts';
import {
  AuthorizationCheckpointedData,
  isPurchaseEventType,
  PurchaseEvent,
  PurchaseEventType,
  QuotedData,
  SettledData,
} from '../../../streams/purchase/events.js';
import { sealedBoxOfCompact } from '../../../src/crypto/seal.js';
import { sealCompact } from '../../support/legacy-seal.js';
import { CLEAR_PAYMENT, checkpointData, ev, quotedData, settledData } from './fixtures.js';

const every = [
  ev.quoted(),
  ev.quoted({ payer: `0x${'aa'.repeat(20)}` as const, report_id: 'r-1', claim_sha256: null }),
  ev.offered(),
  ev.checkpointed(),
  ev.submitted(),
  ev.submitted({ transaction: null }),
  ev.broadcast(),
  ev.broadcast({ transaction: `0x${'cd'.repeat(32)}`, replaces: `0x${'ab'.repeat(32)}`, account_nonce: '0' }),
  ev.settled(),
  ev.settled({ block: null }),
  ev.delivered(),
  ev.held(),
  ev.stuck(),
  ev.moved('retry_settlement'),
  ev.moved('accept_settlement', { settlement: settledData() }),
  ev.moved('closed_no_charge'),
  ev.moved('closed_settled_delivered'),
];

test('every event type is covered by the fixtures and named by a constant', (t) => {
  t.deepEqual(new Set(every.map((e) => e.type)), new Set(Object.values(PurchaseEventType)));
  t.true(isPurchaseEventType('Quoted'));
  t.false(isPurchaseEventType('toString'));
});

for (const [i, e] of every.entries()) {
  const target = e.type === 'OperatorMoved' ? ` (${(e.data as { target: string }).target})` : '';
  test(`codec round trip #${i}: ${e.type}${target}`, (t) => {
    const encoded = PurchaseEvent.encode(e);
    const decoded = PurchaseEvent.decode(encoded);
    if (!isRight(decoded)) return t.fail('does not decode');
    t.deepEqual(decoded.right, e);
    // …and through JSON, as every store adapter keeps it.
    const viaJson = PurchaseEvent.decode(JSON.parse(JSON.stringify(encoded)));
    t.true(isRight(viaJson) && JSON.stringify(viaJson.right) === JSON.stringify(e));
  });
}

test('a clear authorization never passes as sealed_payment; both sealed forms do', (t) => {
  t.true(isLeft(AuthorizationCheckpointedData.decode(checkpointData({ sealed_payment: CLEAR_PAYMENT }))));
  t.true(
    isLeft(
      AuthorizationCheckpointedData.decode({
        ...checkpointData(),
        sealed_payment: JSON.parse(CLEAR_PAYMENT) as unknown,
      }),
    ),
  );
  const compact = sealCompact(new Uint8Array(32), CLEAR_PAYMENT);
  t.true(isRight(AuthorizationCheckpointedData.decode(checkpointData({ sealed_payment: compact }))));
  t.true(
    isRight(AuthorizationCheckpointedData.decode(checkpointData({ sealed_payment: sealedBoxOfCompact(compact) }))),
  );
});

test('formats are enforced: hex digests, integer micro amounts, ISO times, addresses', (t) => {
  const bad = (codec: t_.Mixed, value: unknown) =>
    t.true(isLeft(codec.decode(value)), JSON.stringify(value).slice(0, 80));
  bad(QuotedData, quotedData({ input_sha256: 'A'.repeat(64) }));
  bad(QuotedData, quotedData({ price_micro: '20000.5' }));
  bad(QuotedData, quotedData({ price_micro: '020000' }));
  bad(QuotedData, { ...quotedData(), max_total_micro: 50000 });
  bad(QuotedData, quotedData({ expires_at: 'tomorrow' }));
  bad(SettledData, settledData({ payer: '0x1234' }));
  bad(SettledData, settledData({ transaction: `0x${'ab'.repeat(31)}` as const }));
  bad(SettledData, { ...settledData(), block: 1234 });
  bad(PurchaseEvent, { type: 'Quoted', data: settledData() }); // data of another type
  bad(PurchaseEvent, { type: 'Refunded', data: {} });
});

test('newer writers may add fields: decode keeps them (t.type is not exact)', (t) => {
  const r = QuotedData.decode({ ...quotedData(), future_field: 1 });
  t.true(isRight(r) && (r.right as Record<string, unknown>).future_field === 1);
});

// Quoted is a union keyed by sku (docs/decisions.md, "Products on the money path"): each member holds its
// product's input; a reading stays a record here and is checked by the product that drafts it.
const GATE_INPUT = {
  sku: 'rights.ingestion-gate.v1',
  resource: 'https://rights.example/v1/rights/ingestion-gate',
  purpose: 'rag-ingestion',
  tier: 'fresh',
  user_class: 'commercial',
  geo: null,
  freshness_seconds: 86400,
  resources: ['https://publisher.example/a', 'https://publisher.example/b'],
};
const gateQuoted = () => ({
  ...quotedData(),
  sku: 'rights.ingestion-gate.v1',
  input: GATE_INPUT,
  reading: { version: 'rsl-gate-readings-v1', readings: [] },
});

const REVALIDATION_INPUT = {
  sku: 'rights.revalidate.v1',
  resource: 'https://rights.example/v1/rights/revalidate',
  purpose: 'ai-input',
  tier: 'fresh',
  user_class: 'commercial',
  geo: null,
  resources: ['https://publisher.example/a'],
  checkpoint_sha256s: ['a'.repeat(64)],
};
const revalidationQuoted = () => ({
  ...quotedData(),
  sku: 'rights.revalidate.v1',
  input: REVALIDATION_INPUT,
  reading: { version: 'rsl-revalidation-readings-v1', readings: [], previous: [] },
});

test('Quoted is keyed by sku: each product decodes with its own input and nothing is changed by it', (t) => {
  for (const data of [quotedData(), gateQuoted(), revalidationQuoted()]) {
    const r = QuotedData.decode(data);
    t.true(isRight(r), JSON.stringify(data).slice(0, 80));
    t.is(isRight(r) && JSON.stringify(r.right), JSON.stringify(data)); // byte for byte what was stored
  }
});

test('Quoted refuses an input of another sku, an unknown sku, or a value outside its vocabulary', (t) => {
  const bad = (value: unknown, why: string) => t.true(isLeft(QuotedData.decode(value)), why);
  bad({ ...gateQuoted(), input: quotedData().input }, 'gate sku with a single-report input');
  bad({ ...quotedData(), input: GATE_INPUT }, 'single-report sku with a gate input');
  bad({ ...quotedData(), sku: 'rights.unknown.v1' }, 'a sku no product sells');
  bad(
    { ...quotedData(), input: { ...quotedData().input, purpose: 'rag-ingestion' } },
    'a gate purpose in a single report',
  );
  bad({ ...gateQuoted(), input: { ...GATE_INPUT, tier: 'platinum' } }, 'a tier that is not sold');
  bad({ ...gateQuoted(), input: { ...GATE_INPUT, resources: 'https://publisher.example/a' } }, 'resources not a list');
  bad({ ...revalidationQuoted(), input: GATE_INPUT }, 'revalidation sku with a gate input');
  const { checkpoint_sha256s: _, ...withoutCheckpoints } = REVALIDATION_INPUT;
  bad({ ...revalidationQuoted(), input: withoutCheckpoints }, 'a revalidation without its checkpoints');
});
