import test from 'ava';
import type { RecordedEvent } from '../../src/store/port.js';
import { applyReportEvent, resumeCandidates, type ReportView } from '../../projections/report-view.js';
import { applyQueueEvent, investigationQueueProjection } from '../../projections/investigation-queue.js';

// The reducers are pure: fed the same events they give the same view, and Held purchases keep their history.
let pos = 0n;
const ev = (id: string, type: string, data: Record<string, unknown>): RecordedEvent =>
  ({ id: `e${++pos}`, stream: `purchase-${id}`, type, revision: 0n, position: pos, data, metadata: {}, created: new Date(0) });

const quoted = (id: string) => ev(id, 'Quoted', {
  sku: 'rights.preflight.v1', input: { resource: 'https://pub.example/a', purpose: 'ai-input' }, price_micro: '20000', expires_at: '2030-01-01T00:00:00Z',
  decision_preview: { classification: 'PERMITTED_BY_OBSERVED_DECLARATION', decision: 'ALLOW_DECLARED' },
});

test('report view follows a purchase and lists paid-but-undelivered ones as recovery candidates', (t) => {
  const events = [
    quoted('a'), ev('a', 'Offered', {}), ev('a', 'AuthorizationCheckpointed', { payer: '0xP', sealed_payment: 'v1.secret' }),
    quoted('b'), ev('b', 'Offered', {}), ev('b', 'AuthorizationCheckpointed', { payer: '0xQ' }),
    ev('b', 'Settled', { amount: '20000', transaction: '0xT', payer: '0xQ' }),
    ev('b', 'Delivered', { response: { report: { r: 1 }, evidence: { e: 1 }, delivery_proof: { d: 1 } } }),
    ev('other-stream-kind', 'Quoted', {}),
  ];
  const view = events.reduce<ReportView>(applyReportEvent, {});
  t.is(view.a!.status, 'checkpointed');
  t.is(view.b!.status, 'delivered');
  t.is(view.b!.settled_amount_micro, '20000');
  t.regex(view.b!.report_sha256!, /^[0-9a-f]{64}$/);
  t.deepEqual(resumeCandidates(view), ['a']);
  t.false(JSON.stringify(view).includes('secret'));
  t.deepEqual(events.reduce<ReportView>(applyReportEvent, {}), view, 'deterministic');
});

test('investigation queue holds Held and LockStuck purchases with their history, not delivered ones', (t) => {
  const events = [
    quoted('h'), ev('h', 'Offered', { nonce: '0xN', requirements: { amount: '20000', payTo: '0xR' } }),
    ev('h', 'AuthorizationCheckpointed', { payer: '0xP', nonce: '0xN', amount: '20000', sealed_payment: 'v1.secret' }),
    ev('h', 'Held', { reason: 'SETTLEMENT_MISMATCH', details: { mismatches: { amount: { expected: '20000', settled: '1' } } } }),
    quoted('d'), ev('d', 'Delivered', {}),
  ];
  const q = events.reduce(applyQueueEvent, investigationQueueProjection.initial);
  t.deepEqual(Object.keys(q.items), ['h']);
  t.is(q.items.h!.kind, 'held');
  t.is(q.items.h!.reason, 'SETTLEMENT_MISMATCH');
  t.deepEqual(q.items.h!.history.map((e) => e.type), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'Held']);
  t.false('d' in q.open, 'a delivered purchase leaves no history behind');
  t.false(JSON.stringify(q).includes('secret'));
});

test('an OperatorMoved takes a purchase off the investigation queue; its history is kept and returns with a new hold', (t) => {
  const held = [
    quoted('m'), ev('m', 'Offered', { nonce: '0xN', requirements: { amount: '20000', payTo: '0xR' } }),
    ev('m', 'AuthorizationCheckpointed', { payer: '0xP', nonce: '0xN', amount: '20000', sealed_payment: 'v1.secret' }),
    ev('m', 'LockStuck', { reason: 'WINDOW_PASSED_UNSETTLED', details: {}, last_step: 'checkpointed', tried: ['read_authorization_state'] }),
  ];
  const onQueue = held.reduce(applyQueueEvent, investigationQueueProjection.initial);
  t.deepEqual(Object.keys(onQueue.items), ['m']);

  const moved = applyQueueEvent(onQueue, ev('m', 'OperatorMoved', { target: 'retry_settlement', note: 'chain checked', operator: 'alice', at: '2030-01-01T00:00:00Z' }));
  t.deepEqual(moved.items, {}, 'off the queue');
  t.deepEqual(moved.open.m!.map((e) => e.type), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck', 'OperatorMoved'], 'history kept');
  t.deepEqual(moved.open.m!.at(-1)!.summary, { target: 'retry_settlement', operator: 'alice', note: 'chain checked' });

  const again = applyQueueEvent(moved, ev('m', 'Held', { reason: 'SETTLEMENT_FAILED', details: {} }));
  t.is(again.items.m!.kind, 'held');
  t.deepEqual(again.items.m!.history.map((e) => e.type), ['Quoted', 'Offered', 'AuthorizationCheckpointed', 'LockStuck', 'OperatorMoved', 'Held']);
  t.false(JSON.stringify(again).includes('secret'));
});
