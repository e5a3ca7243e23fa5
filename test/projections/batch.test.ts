import test from 'ava';
import { applyBatch, type BatchChanges } from '../../projections/batch.js';
import { complianceOf } from '../../projections/compliance/compliance-of.js';
import type { ComplianceRow } from '../../projections/compliance/compliance-row.js';
import { deliveredFactsFromData, incompleteDelivered } from '../../projections/feed/delivered-digests.js';
import { factsOf } from '../../projections/feed/event-facts.js';
import { decodeFactEvent, type FactEvent } from '../../projections/feed/fact-event.js';
import type { RefundRow } from '../../projections/refunds/refund-row.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import { decideToAppend } from '../support/decide-at.js';
import type { PurchaseCommandBody } from '../../streams/purchase/commands.js';
import { evolve, fold } from '../../streams/purchase/evolve.js';
import { initialState, type PurchaseState } from '../../streams/purchase/state.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { deliveredData, newPurchaseId } from '../ops/seed.js';
import {
  checkpointData,
  heldData,
  NOW,
  offeredData,
  quotedData,
  settledData,
  stuckData,
  submittedData,
} from '../streams/purchase/fixtures.js';

// The batch projection is pure: the same events give the same rows however they are cut into
// batches, every status is the one the stream's own fold reaches, and the queue holds only locked
// purchases. Events are made by the real decider, so they are the events the service writes.

type Script = PurchaseCommandBody[];
const quote = (id: string): PurchaseCommandBody => ({ type: 'Quote', data: quotedData({ purchase_id: id }) });
const paid = (id: string): Script => [
  quote(id),
  { type: 'Offer', data: offeredData() },
  { type: 'CheckpointAuthorization', data: checkpointData() },
];
const move = (
  target: 'retry_settlement' | 'closed_no_charge' | 'accept_settlement' | 'closed_settled_delivered',
): PurchaseCommandBody => ({ type: 'OperatorMove', data: { target, note: 'n', operator: 'o', at: NOW.toISOString() } });

const scripts: [string, (id: string) => Script][] = [
  ['abandoned', (id) => [quote(id)]],
  ['offered', (id) => [quote(id), { type: 'Offer', data: offeredData() }]],
  ['paid', paid],
  [
    'delivered',
    (id) => [
      ...paid(id),
      { type: 'RecordSettlement', data: settledData() },
      { type: 'Deliver', data: deliveredData(id) },
    ],
  ],
  ['submitted', (id) => [...paid(id), { type: 'RecordSubmission', data: submittedData() }]],
  ['stuck', (id) => [...paid(id), { type: 'MarkLockStuck', data: stuckData() }]],
  ['stuck-retried', (id) => [...paid(id), { type: 'MarkLockStuck', data: stuckData() }, move('retry_settlement')]],
  ['stuck-closed', (id) => [...paid(id), { type: 'MarkLockStuck', data: stuckData() }, move('closed_no_charge')]],
  [
    'held-after-delivery',
    (id) => [
      ...paid(id),
      { type: 'RecordSettlement', data: settledData() },
      { type: 'Deliver', data: deliveredData(id) },
      { type: 'Hold', data: heldData() },
    ],
  ],
  [
    'held-resolved',
    (id) => [
      ...paid(id),
      { type: 'RecordSettlement', data: settledData() },
      { type: 'Deliver', data: deliveredData(id) },
      { type: 'Hold', data: heldData() },
      move('closed_settled_delivered'),
    ],
  ],
];

let position = 0n;
function history(script: Script): { events: FactEvent[]; state: PurchaseState } {
  let state = initialState;
  const events: FactEvent[] = [];
  for (const command of script) {
    for (const e of decideToAppend(command, state, NOW)) {
      state = evolve(state, e);
      const id = (script[0]!.data as { purchase_id: string }).purchase_id;
      const stream = streamName(id);
      const facts = factsOf(stream, e.type, e.data);
      // As the feeds do: a Delivered without its proof digest is completed from its data.
      const complete = incompleteDelivered(e.type, facts) ? deliveredFactsFromData(e.data) : facts;
      events.push(
        decodeFactEvent({ position: ++position, stream, type: e.type, created: NOW.toISOString(), facts: complete })!,
      );
    }
  }
  return { events, state };
}

function fullRun(batches: FactEvent[][]) {
  const reports = new Map<string, ReportRow>();
  const refunds = new Map<string, RefundRow>();
  const queue = new Map<string, string>();
  const daily = new Map<string, string>();
  for (const batch of batches) {
    const c: BatchChanges = applyBatch(batch, { reports, refunds });
    for (const r of c.reports) reports.set(r.purchase_id, r);
    for (const r of c.refunds) refunds.set(r.purchase_id, r);
    for (const id of c.queueRemove) queue.delete(id);
    for (const q of c.queuePut) queue.set(q.purchase_id, q.kind);
    for (const d of c.daily) {
      const [n, held] = (daily.get(d.key) ?? '0,0').split(',').map(Number);
      daily.set(d.key, `${n! + d.reports},${held! + d.held}`);
    }
  }
  // The compliance rows are a view of the report and refund rows (complianceOf says the same in TypeScript).
  const compliance = new Map<string, ComplianceRow>();
  for (const [id, r] of reports) {
    const [row] = complianceOf(r, refunds.get(id));
    if (row) compliance.set(id, row);
  }
  return { reports, queue, compliance, daily: [...daily].filter(([, v]) => v !== '0,0') };
}

const built = scripts.map(([name, script]) => {
  const id = newPurchaseId();
  return { name, id, ...history(script(id)) };
});
const interleaved = built.flatMap((b) => b.events).sort((a, b) => Number(a.position - b.position));

test('every status is the one the stream fold reaches; the queue holds only held and stuck purchases', (t) => {
  const { reports, queue, compliance, daily } = fullRun([interleaved]);
  for (const b of built) t.is(reports.get(b.id)!.status, b.state.status, b.name);
  t.deepEqual([...queue.entries()].map(([id, kind]) => `${built.find((b) => b.id === id)!.name}:${kind}`).sort(), [
    'held-after-delivery:held',
    'stuck:lock_stuck',
  ]);
  t.deepEqual([...compliance.keys()].map((id) => built.find((b) => b.id === id)!.name).sort(), [
    'delivered',
    'held-after-delivery',
    'held-resolved',
  ]);
  t.true(compliance.get(built.find((b) => b.name === 'held-after-delivery')!.id)!.held);
  t.false(compliance.get(built.find((b) => b.name === 'held-resolved')!.id)!.held);
  // Every delivered report counted once in its day's aggregate, the held one as held.
  t.deepEqual(
    daily.map(([, v]) => v),
    ['3,1'],
  );
});

test('the rows do not depend on how the events are cut into batches', (t) => {
  const whole = fullRun([interleaved]);
  for (const size of [1, 2, 3, 7]) {
    const batches: FactEvent[][] = [];
    for (let i = 0; i < interleaved.length; i += size) batches.push(interleaved.slice(i, i + size));
    const cut = fullRun(batches);
    t.deepEqual([...cut.reports.entries()].sort(), [...whole.reports.entries()].sort(), `batches of ${size}`);
    t.deepEqual([...cut.queue.entries()].sort(), [...whole.queue.entries()].sort());
    t.deepEqual([...cut.compliance.entries()].sort(), [...whole.compliance.entries()].sort());
    t.deepEqual(cut.daily.sort(), whole.daily.sort(), `daily aggregates, batches of ${size}`);
  }
});

test('nothing secret reaches a row: no sealed authorization, no claim digest', (t) => {
  const text = JSON.stringify([...fullRun([interleaved]).reports.values()]);
  t.false(text.includes('sealed'));
  t.false(text.includes(quotedData().claim_sha256!));
  t.is(fold([]).status, 'none');
});
