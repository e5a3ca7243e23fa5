import test from 'ava';
import { given } from './given-when-then.js';
import {
  at,
  broadcastData,
  CLEAR_PAYMENT,
  checkpointData,
  deliveredData,
  ev,
  heldData,
  history,
  iso,
  movedData,
  NOW,
  offeredData,
  PAYER,
  PAYMENT_SHA256,
  quotedData,
  settledData,
  stuckData,
  submittedData,
  TX,
  TX2,
} from './fixtures.js';
import type { PurchaseCommandBody } from '../../../streams/purchase/commands.js';

// decide: every row of spec §3's transition table, then every illegal move.

// ── Spec §3 rows ────────────────────────────────────────────────────────────────────────────────
test('§3 none → quoted: an available quote appends Quoted', (t) => {
  const after = given([]).when({ type: 'Quote', data: quotedData() }).then(t, [ev.quoted()]);
  t.is(after.status, 'quoted');
  t.is(after.quoted?.claim_sha256, quotedData().claim_sha256); // only the digest of the claim is kept
});

test(
  '§3 none → no report: an unavailable quote leaves no stream, ' + 'and nothing can be offered, paid or settled on it',
  (t) => {
    // NO_VERIFIABLE_DECLARATION appends nothing (the application never sends Quote), so the stream is empty:
    const none = given([]);
    t.is(none.state.status, 'none');
    none.when({ type: 'Offer', data: offeredData() }).thenRefused(t, 'NOT_QUOTED');
    none.when({ type: 'CheckpointAuthorization', data: checkpointData() }).thenRefused(t, 'NOT_QUOTED');
    none.when({ type: 'RecordSettlement', data: settledData() }).thenRefused(t, 'NOT_QUOTED');
    none.when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'NOT_QUOTED');
  },
);

test('§3 none → quoted with UNKNOWN preview: an unsupported declaration is still a purchasable report', (t) => {
  const unknown = { purpose: 'ai-input', classification: 'UNKNOWN', decision: 'UNKNOWN' };
  const after = given([])
    .when({ type: 'Quote', data: quotedData({ decision_preview: unknown }) })
    .then(t, [ev.quoted({ decision_preview: unknown })]);
  t.deepEqual(after.quoted?.decision_preview, unknown);
  given([ev.quoted({ decision_preview: unknown })])
    .when({ type: 'Offer', data: offeredData() })
    .then(t, [ev.offered()]);
});

test('§3 quoted → offered: the first 402 appends Offered', (t) => {
  const after = given(history.quoted()).when({ type: 'Offer', data: offeredData() }).then(t, [ev.offered()]);
  t.is(after.status, 'offered');
  t.is(after.offered?.nonce, offeredData().nonce);
});

test('§3 offered → delivered: a valid bound payment is checkpointed, settled, then delivered once', (t) => {
  const c = given(history.offered())
    .when({ type: 'CheckpointAuthorization', data: checkpointData() }, at(1))
    .then(t, [ev.checkpointed()]);
  t.is(c.status, 'checkpointed');
  const s = given(history.checkpointed())
    .when({ type: 'RecordSettlement', data: settledData() }, at(3))
    .then(t, [ev.settled()]);
  t.is(s.status, 'settled');
  const d = given(history.settled()).when({ type: 'Deliver', data: deliveredData() }, at(4)).then(t, [ev.delivered()]);
  t.is(d.status, 'delivered');
  t.is(d.delivered?.response.payment_settlement.transaction, TX);
});

test(
  '§3 offered, submission ambiguous → resumed with the same checkpoint: ' +
    'no new quote, no new authorization, one settlement',
  (t) => {
    const ambiguous = given(history.submitted());
    t.is(ambiguous.state.status, 'settlement_submitted');
    // same payment: idempotent
    ambiguous.when({ type: 'CheckpointAuthorization', data: checkpointData({ at: iso(30) }) }, at(30)).thenNothing(t);
    ambiguous.when({ type: 'Quote', data: quotedData() }).thenRefused(t, 'ALREADY_QUOTED');
    ambiguous
      .when({ type: 'CheckpointAuthorization', data: checkpointData({ payment_sha256: 'e'.repeat(64) }) })
      .thenRefused(t, 'PURCHASE_ALREADY_PAYING');
    ambiguous
      .when({ type: 'RecordSubmission', data: submittedData({ at: iso(40) }) }, at(40))
      .then(t, [ev.submitted({ at: iso(40) })]);
    const settled = ambiguous.when({ type: 'RecordSettlement', data: settledData() }, at(50)).then(t, [ev.settled()]);
    t.is(settled.status, 'settled');
    t.is(settled.submissions, 1);
    given([...history.submitted(), ev.settled()])
      .when({ type: 'Deliver', data: deliveredData() })
      .then(t, [ev.delivered()]);
  },
);

test(
  '§3 delivered → held: a buyer-reported verification failure is recorded; ' + 'the delivery and checkpoint stay',
  (t) => {
    const held = given(history.delivered())
      .when({ type: 'Hold', data: heldData('BUYER_REPORTED_MISMATCH') })
      .then(t, [ev.held('BUYER_REPORTED_MISMATCH')]);
    t.is(held.status, 'held');
    t.truthy(held.delivered, 'the stored delivery is still there to re-serve');
    t.is(held.checkpoint?.payment_sha256, PAYMENT_SHA256, 'the sealed checkpoint is kept');
    t.is(held.locked_from, 'delivered');
    const resolved = given([...history.delivered(), ev.held()])
      .when({ type: 'OperatorMove', data: movedData('closed_settled_delivered') })
      .then(t, [ev.moved('closed_settled_delivered')]);
    t.is(resolved.status, 'delivered');
    t.is(resolved.held, undefined);
    t.is(resolved.operator_moves.length, 1);
  },
);

// ── Idempotent retries ──────────────────────────────────────────────────────────────────────────
test('Offer again while the offer is valid → no new event (the route answers the stored offer)', (t) => {
  given(history.offered())
    .when({ type: 'Offer', data: offeredData({ nonce: `0x${'99'.repeat(32)}` as const }) }, at(60))
    .thenNothing(t);
});

test('the same settlement confirmed twice → no second Settled; another transaction → ALREADY_SETTLED', (t) => {
  given(history.settled()).when({ type: 'RecordSettlement', data: settledData() }).thenNothing(t);
  given(history.delivered())
    .when({
      type: 'RecordSettlement',
      data: settledData({ transaction: TX.toUpperCase().replace('0X', '0x') as `0x${string}` }),
    })
    .thenNothing(t);
  given(history.settled())
    .when({ type: 'RecordSettlement', data: settledData({ transaction: `0x${'cd'.repeat(32)}` as const }) })
    .thenRefused(t, 'ALREADY_SETTLED');
});

test('the same authorization after delivery → no event (the stored delivery is returned, nothing charged)', (t) => {
  given(history.delivered()).when({ type: 'CheckpointAuthorization', data: checkpointData() }).thenNothing(t);
});

// ── Illegal moves ───────────────────────────────────────────────────────────────────────────────
test('delivering twice is refused', (t) => {
  given(history.delivered()).when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'ALREADY_DELIVERED');
});

test('settling an unquoted, unoffered or un-checkpointed purchase is refused', (t) => {
  given([]).when({ type: 'RecordSettlement', data: settledData() }).thenRefused(t, 'NOT_QUOTED');
  given(history.quoted()).when({ type: 'RecordSettlement', data: settledData() }).thenRefused(t, 'NOT_OFFERED');
  given(history.offered()).when({ type: 'RecordSettlement', data: settledData() }).thenRefused(t, 'NOT_CHECKPOINTED');
});

test('delivering before settlement is refused', (t) => {
  given(history.quoted()).when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'NOT_OFFERED');
  given(history.offered()).when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'NOT_SETTLED');
  given(history.checkpointed()).when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'NOT_SETTLED');
  given(history.submitted()).when({ type: 'Deliver', data: deliveredData() }).thenRefused(t, 'NOT_SETTLED');
});

test('a delivery naming another transaction than the recorded settlement is refused', (t) => {
  given(history.settled())
    .when({ type: 'Deliver', data: deliveredData(`0x${'ef'.repeat(32)}` as const) })
    .thenRefused(t, 'DELIVERY_MISMATCH');
});

test('quoting the same stream twice is refused', (t) => {
  for (const h of [history.quoted(), history.offered(), history.delivered()])
    given(h).when({ type: 'Quote', data: quotedData() }).thenRefused(t, 'ALREADY_QUOTED');
});

test("a quote above the buyer's budget, or already expired, is refused", (t) => {
  given([])
    .when({ type: 'Quote', data: quotedData({ price_micro: '50001' }) })
    .thenRefused(t, 'PRICE_EXCEEDS_BUDGET');
  given([])
    .when({ type: 'Quote', data: quotedData({ price_micro: '50000' }) })
    .then(t, [ev.quoted({ price_micro: '50000' })]);
  given([]).when({ type: 'Quote', data: quotedData() }, at(900)).thenRefused(t, 'QUOTE_EXPIRED');
});

test('offering after the quote expired, or re-offering after the offer expired, is refused', (t) => {
  given(history.quoted()).when({ type: 'Offer', data: offeredData() }, at(900)).thenRefused(t, 'OFFER_EXPIRED');
  given(history.offered()).when({ type: 'Offer', data: offeredData() }, at(901)).thenRefused(t, 'OFFER_EXPIRED');
});

test('an offer must ask exactly the quoted price and not outlive the quote', (t) => {
  const cheaper = { ...offeredData().requirements, amount: '19999' };
  given(history.quoted())
    .when({ type: 'Offer', data: offeredData({ requirements: cheaper }) })
    .thenRefused(t, 'OFFER_MISMATCH');
  given(history.quoted())
    .when({ type: 'Offer', data: offeredData({ expires_at: iso(901) }) })
    .thenRefused(t, 'OFFER_MISMATCH');
});

test('an offer after a checkpoint or delivery is refused', (t) => {
  given(history.checkpointed()).when({ type: 'Offer', data: offeredData() }).thenRefused(t, 'PURCHASE_ALREADY_PAYING');
  given(history.delivered()).when({ type: 'Offer', data: offeredData() }).thenRefused(t, 'ALREADY_DELIVERED');
});

test('checkpointing before the offer, or after it expired, is refused', (t) => {
  given(history.quoted())
    .when({ type: 'CheckpointAuthorization', data: checkpointData() })
    .thenRefused(t, 'NOT_OFFERED');
  given(history.offered())
    .when({ type: 'CheckpointAuthorization', data: checkpointData() }, at(900))
    .thenRefused(t, 'OFFER_EXPIRED');
});

test('checkpointing a second, different authorization is refused at every later step', (t) => {
  const other = checkpointData({ payment_sha256: 'f'.repeat(64), at: iso(20) });
  for (const h of [history.checkpointed(), history.submitted(), history.settled(), history.delivered()]) {
    given(h).when({ type: 'CheckpointAuthorization', data: other }).thenRefused(t, 'PURCHASE_ALREADY_PAYING');
  }
});

test("an authorization that is not the offer's (nonce, amount, pinned payer) or is past its window is refused", (t) => {
  const offered = given(history.offered());
  offered
    .when({ type: 'CheckpointAuthorization', data: checkpointData({ nonce: `0x${'12'.repeat(32)}` as const }) })
    .thenRefused(t, 'AUTHORIZATION_MISMATCH');
  offered
    .when({ type: 'CheckpointAuthorization', data: checkpointData({ amount: '20001' }) })
    .thenRefused(t, 'AUTHORIZATION_MISMATCH');
  offered
    .when({
      type: 'CheckpointAuthorization',
      data: checkpointData({ valid_before: String(Math.floor(NOW.getTime() / 1000)) }),
    })
    .thenRefused(t, 'PAYMENT_WINDOW_EXPIRED');
  const pinned = given([ev.quoted({ payer: `0x${'aa'.repeat(20)}` as const }), ev.offered()]);
  pinned.when({ type: 'CheckpointAuthorization', data: checkpointData() }).thenRefused(t, 'PAYMENT_FROM_NOT_SIGNER');
  pinned
    .when({ type: 'CheckpointAuthorization', data: checkpointData({ payer: `0x${'AA'.repeat(20)}` as const }) })
    .then(t, [ev.checkpointed({ payer: `0x${'AA'.repeat(20)}` as const })]);
});

test('a purchase pinned to a signed-in payer offers only to that payer (any case of its address)', (t) => {
  const payer = `0x${'aa'.repeat(20)}` as const;
  given([ev.quoted({ payer })])
    .when({ type: 'Offer', data: offeredData(), payer: `0x${'bb'.repeat(20)}` })
    .thenRefused(t, 'PURCHASE_BOUND_TO_OTHER_PAYER');
  given([ev.quoted({ payer }), ev.offered()])
    .when({ type: 'Offer', data: offeredData(), payer: `0x${'bb'.repeat(20)}` })
    .thenRefused(t, 'PURCHASE_BOUND_TO_OTHER_PAYER');
  given([ev.quoted({ payer })])
    .when({ type: 'Offer', data: offeredData(), payer: `0x${'AA'.repeat(20)}` })
    .then(t, [ev.offered()]);
  given([ev.quoted({ payer }), ev.offered()])
    .when({ type: 'Offer', data: offeredData(), payer })
    .thenNothing(t);
});

test('a clear authorization where the sealed one belongs is refused before it can be stored', (t) => {
  given(history.offered())
    .when({ type: 'CheckpointAuthorization', data: checkpointData({ sealed_payment: CLEAR_PAYMENT }) })
    .thenRefused(t, 'INVALID_EVENT');
});

test('a settled transfer that differs from the authorization or offer becomes Held, not Settled', (t) => {
  for (const [field, over] of [
    ['amount', { amount: '19999' }],
    ['recipient', { pay_to: `0x${'dd'.repeat(20)}` as const }],
    ['payer', { payer: `0x${'ee'.repeat(20)}` as const }],
    ['asset', { asset: `0x${'0f'.repeat(20)}` as const }],
    ['network', { network: 'eip155:84532' }],
  ] as const) {
    const events = given(history.submitted())
      .when({ type: 'RecordSettlement', data: settledData(over) }, at(9))
      .events();
    t.is(events.length, 1);
    t.is(events[0]!.type, 'Held', field);
    const d = events[0]!.data as { reason: string; details: { mismatches: Record<string, unknown> }; at: string };
    t.is(d.reason, 'SETTLEMENT_MISMATCH');
    t.deepEqual(Object.keys(d.details.mismatches), [field]);
    t.is(d.at, iso(9));
  }
  // Payer addresses compare case-insensitively (checksummed vs lowercase is the same account).
  given(history.checkpointed())
    .when({
      type: 'RecordSettlement',
      data: settledData({ payer: PAYER.toUpperCase().replace('0X', '0x') as `0x${string}` }),
    })
    .then(t, [ev.settled({ payer: PAYER.toUpperCase().replace('0X', '0x') as `0x${string}` })]);
});

test('ambiguous submission and stuck marking need a checkpointed, unsettled purchase', (t) => {
  given(history.offered()).when({ type: 'RecordSubmission', data: submittedData() }).thenRefused(t, 'NOT_CHECKPOINTED');
  given(history.settled()).when({ type: 'RecordSubmission', data: submittedData() }).thenRefused(t, 'ALREADY_SETTLED');
  given(history.offered()).when({ type: 'MarkLockStuck', data: stuckData() }).thenRefused(t, 'NOT_CHECKPOINTED');
  given(history.settled()).when({ type: 'MarkLockStuck', data: stuckData() }).thenRefused(t, 'ALREADY_SETTLED');
  given(history.checkpointed()).when({ type: 'MarkLockStuck', data: stuckData() }).then(t, [ev.stuck()]);
  given(history.submitted()).when({ type: 'MarkLockStuck', data: stuckData() }).then(t, [ev.stuck()]);
});

// ── Write-ahead submission record (docs/decisions.md, "Write-ahead submission record") ─────────────

test('a signed transaction is written ahead on a checkpointed or submitted purchase; its status stays', (t) => {
  const after = given(history.checkpointed())
    .when({ type: 'RecordBroadcast', data: broadcastData() })
    .then(t, [ev.broadcast()]);
  t.is(after.status, 'checkpointed');
  t.is(after.submissions, 0, 'a broadcast on record is not an ambiguous submission');
  t.deepEqual(
    after.broadcasts.map((b) => b.transaction),
    [TX],
  );
  const resubmitted = given(history.submitted())
    .when({ type: 'RecordBroadcast', data: broadcastData({ transaction: TX2 }) })
    .then(t, [ev.broadcast({ transaction: TX2 })]);
  t.is(resubmitted.status, 'settlement_submitted');
});

test('the same transaction written ahead twice → no second event (any case of its hash)', (t) => {
  given(history.broadcast())
    .when({
      type: 'RecordBroadcast',
      data: broadcastData({ transaction: TX.toUpperCase().replace('0X', '0x') as `0x${string}` }),
    })
    .thenNothing(t);
});

test('a replacement names a transaction this purchase recorded, and is kept beside it', (t) => {
  const both = given(history.broadcast())
    .when({
      type: 'RecordBroadcast',
      data: broadcastData({ transaction: TX2, replaces: TX, max_fee_per_gas: '2200000000' }),
    })
    .then(t, [ev.broadcast({ transaction: TX2, replaces: TX, max_fee_per_gas: '2200000000' })]);
  t.deepEqual(
    both.broadcasts.map((b) => b.transaction),
    [TX, TX2],
  );
  given(history.checkpointed())
    .when({ type: 'RecordBroadcast', data: broadcastData({ transaction: TX2, replaces: TX }) })
    .thenRefused(t, 'INVALID_EVENT');
});

test('nothing is written ahead before a checkpoint, after settlement, or on a locked purchase', (t) => {
  given(history.offered()).when({ type: 'RecordBroadcast', data: broadcastData() }).thenRefused(t, 'NOT_CHECKPOINTED');
  given(history.settled()).when({ type: 'RecordBroadcast', data: broadcastData() }).thenRefused(t, 'ALREADY_SETTLED');
  given(history.delivered()).when({ type: 'RecordBroadcast', data: broadcastData() }).thenRefused(t, 'ALREADY_SETTLED');
  given([...history.broadcast(), ev.stuck()])
    .when({ type: 'RecordBroadcast', data: broadcastData({ transaction: TX2 }) })
    .thenRefused(t, 'PURCHASE_LOCKED');
  given(history.checkpointed())
    .when({ type: 'RecordBroadcast', data: broadcastData({ account_nonce: '-1' }) })
    .thenRefused(t, 'INVALID_EVENT');
});

test('a written-ahead purchase settles with the recorded transaction and is delivered once', (t) => {
  const settled = given(history.broadcast())
    .when({ type: 'RecordSettlement', data: settledData() })
    .then(t, [ev.settled()]);
  t.deepEqual(
    settled.broadcasts.map((b) => b.transaction),
    [TX],
    'the record stays with the settled state',
  );
  given([...history.broadcast(), ev.settled()])
    .when({ type: 'Deliver', data: deliveredData() })
    .then(t, [ev.delivered()]);
});

test('nothing is held before a checkpoint (a refused payment is an answer, not a hold)', (t) => {
  given(history.quoted()).when({ type: 'Hold', data: heldData() }).thenRefused(t, 'NOT_OFFERED');
  given(history.offered()).when({ type: 'Hold', data: heldData() }).thenRefused(t, 'NOT_CHECKPOINTED');
  for (const h of [history.checkpointed(), history.submitted(), history.settled()])
    given(h)
      .when({ type: 'Hold', data: heldData('SETTLEMENT_FAILED') })
      .then(t, [ev.held('SETTLEMENT_FAILED')]);
});

const everyNonOperatorCommand: PurchaseCommandBody[] = [
  { type: 'Quote', data: quotedData() },
  { type: 'Offer', data: offeredData() },
  { type: 'CheckpointAuthorization', data: checkpointData() },
  { type: 'CheckpointAuthorization', data: checkpointData({ payment_sha256: 'f'.repeat(64) }) },
  { type: 'RecordSubmission', data: submittedData() },
  { type: 'RecordBroadcast', data: broadcastData() },
  { type: 'RecordSettlement', data: settledData() },
  { type: 'Deliver', data: deliveredData() },
  { type: 'Hold', data: heldData() },
  { type: 'MarkLockStuck', data: stuckData() },
];

test(
  'a stuck lock is never moved by anything but an operator ' + 'command (not even the same payment or a settlement)',
  (t) => {
    for (const h of [
      [...history.checkpointed(), ev.stuck()],
      [...history.submitted(), ev.stuck()],
    ]) {
      for (const command of everyNonOperatorCommand) given(h).when(command).thenRefused(t, 'PURCHASE_LOCKED');
    }
  },
);

test('a held purchase is locked the same way, wherever it was held', (t) => {
  for (const h of [
    [...history.checkpointed(), ev.held()],
    [...history.settled(), ev.held()],
    [...history.delivered(), ev.held()],
  ]) {
    for (const command of everyNonOperatorCommand) given(h).when(command).thenRefused(t, 'PURCHASE_LOCKED');
  }
});

test('operator moves: only on held/stuck purchases, only to targets their history allows', (t) => {
  for (const h of [[], history.offered(), history.checkpointed(), history.delivered()]) {
    given(h)
      .when({ type: 'OperatorMove', data: movedData('retry_settlement') })
      .thenRefused(t, 'NOT_LOCKED');
  }
  const stuck = given([...history.submitted(), ev.stuck()]);
  const retried = stuck
    .when({ type: 'OperatorMove', data: movedData('retry_settlement') })
    .then(t, [ev.moved('retry_settlement')]);
  t.is(retried.status, 'checkpointed');
  t.is(retried.submissions, 0);
  t.is(retried.stuck, undefined);
  const accepted = stuck
    .when({ type: 'OperatorMove', data: movedData('accept_settlement', { settlement: settledData() }) })
    .then(t, [ev.moved('accept_settlement', { settlement: settledData() })]);
  t.is(accepted.status, 'settled');
  t.is(accepted.settled?.transaction, TX);
  // no settlement to accept
  stuck.when({ type: 'OperatorMove', data: movedData('accept_settlement') }).thenRefused(t, 'OPERATOR_TARGET_INVALID');
  stuck
    .when({ type: 'OperatorMove', data: movedData('closed_settled_delivered') })
    .thenRefused(t, 'OPERATOR_TARGET_INVALID');
  const closed = stuck
    .when({ type: 'OperatorMove', data: movedData('closed_no_charge') })
    .then(t, [ev.moved('closed_no_charge')]);
  t.is(closed.status, 'closed');

  const heldAfterSettle = given([...history.settled(), ev.held()]);
  heldAfterSettle
    .when({ type: 'OperatorMove', data: movedData('closed_no_charge') })
    .thenRefused(t, 'OPERATOR_TARGET_INVALID'); // money moved
  heldAfterSettle
    .when({ type: 'OperatorMove', data: movedData('retry_settlement') })
    .thenRefused(t, 'OPERATOR_TARGET_INVALID');
  t.is(
    heldAfterSettle
      .when({ type: 'OperatorMove', data: movedData('accept_settlement') })
      .then(t, [ev.moved('accept_settlement')]).status,
    'settled',
  );
});

test('an operator move needs a note and an operator', (t) => {
  given([...history.checkpointed(), ev.stuck()])
    .when({ type: 'OperatorMove', data: movedData('retry_settlement', { note: '  ' }) })
    .thenRefused(t, 'INVALID_EVENT');
  given([...history.checkpointed(), ev.stuck()])
    .when({ type: 'OperatorMove', data: movedData('retry_settlement', { operator: '' }) })
    .thenRefused(t, 'INVALID_EVENT');
});

test('a closed purchase refuses everything, operator moves included', (t) => {
  const closed = [...history.checkpointed(), ev.stuck(), ev.moved('closed_no_charge')];
  for (const command of [
    ...everyNonOperatorCommand,
    { type: 'OperatorMove', data: movedData('retry_settlement') } as PurchaseCommandBody,
  ]) {
    given(closed).when(command).thenRefused(t, 'PURCHASE_CLOSED');
  }
});

test('after an operator retry the purchase continues normally and settles once', (t) => {
  const h = [...history.submitted(), ev.stuck(), ev.moved('retry_settlement')];
  given(h).when({ type: 'CheckpointAuthorization', data: checkpointData() }).thenNothing(t);
  given(h).when({ type: 'RecordSettlement', data: settledData() }).then(t, [ev.settled()]);
});
