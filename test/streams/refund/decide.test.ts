import test from 'ava';
import {
  decideRefund,
  evolveRefund,
  foldRefund,
  initialRefundState,
  RefundRefused,
  UnknownRefundEvent,
  type PurchaseCharge,
  type RefundCommandBody,
  type RefundState,
} from '../../../streams/refund/index.js';

// Given events, when a command, then events or a refusal code (spec §3: refund requests are
// operator-reviewed records; only a charge can be the subject of one; nothing here moves money).

const NOW = new Date('2026-11-22T12:00:00.000Z');
const ID = 'a'.repeat(64);
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
const TX = `0x${'12'.repeat(32)}` as const;
const REFUND_TX = `0x${'34'.repeat(32)}` as const;
const CLAIM = 'c'.repeat(64);

const settled: PurchaseCharge = {
  status: 'delivered',
  authorization: { amount: '20000', payer: PAYER },
  settlement: { amount: '20000', payer: PAYER, transaction: TX },
  closedWithoutCharge: false,
};
const request = (purchase: PurchaseCharge = settled, message = 'the report never arrived'): RefundCommandBody => ({
  type: 'RequestRefund',
  data: { purchase_id: ID, reason: 'NOT_DELIVERED', message, purchase, claim: CLAIM },
});
const review = (decision: 'approved' | 'rejected'): RefundCommandBody => ({
  type: 'ReviewRefund',
  data: { decision, note: 'checked the chain', operator: 'ana', at: NOW.toISOString() },
});
const paid = (amount = '20000', transaction = REFUND_TX): RefundCommandBody => ({
  type: 'RecordRefundPayment',
  data: { transaction, amount_micro: amount, note: 'sent by hand', operator: 'ana', at: NOW.toISOString() },
});

const given = (...commands: RefundCommandBody[]): RefundState =>
  commands.reduce<RefundState>(
    (s, c) => decideRefund({ ...c, metadata: { now: NOW } }, s).reduce(evolveRefund, s),
    initialRefundState,
  );
const refusal = (command: RefundCommandBody, state: RefundState) => {
  try {
    decideRefund({ ...command, metadata: { now: NOW } }, state);
    return 'accepted';
  } catch (err) {
    return err instanceof RefundRefused ? err.code : String(err);
  }
};

test('a settled purchase: RefundRequested names the charge and its transaction', (t) => {
  t.deepEqual(decideRefund({ ...request(), metadata: { now: NOW } }, initialRefundState), [
    {
      type: 'RefundRequested',
      data: {
        purchase_id: ID,
        reason: 'NOT_DELIVERED',
        message: 'the report never arrived',
        charge: { purchase_status: 'delivered', amount_micro: '20000', payer: PAYER, transaction: TX },
        at: NOW.toISOString(),
      },
    },
  ]);
});

test(
  'a checkpointed authorization whose outcome is unresolved ' + 'may be the subject of a request (transaction null)',
  (t) => {
    const stuck: PurchaseCharge = {
      status: 'lock_stuck',
      authorization: { amount: '50000', payer: PAYER },
      closedWithoutCharge: false,
    };
    const [e] = decideRefund({ ...request(stuck), metadata: { now: NOW } }, initialRefundState);
    t.deepEqual(e!.type === 'RefundRequested' && e!.data.charge, {
      purchase_status: 'lock_stuck',
      amount_micro: '50000',
      payer: PAYER,
      transaction: null,
    });
  },
);

for (const [what, purchase] of [
  ['a quoted purchase (no payment accepted)', { status: 'quoted', closedWithoutCharge: false }],
  ['an offered purchase', { status: 'offered', closedWithoutCharge: false }],
  [
    'a purchase an operator closed without a charge',
    { status: 'closed', authorization: { amount: '20000', payer: PAYER }, closedWithoutCharge: true },
  ],
] as const) {
  test(`nothing charged: ${what} is refused REFUND_NOTHING_CHARGED`, (t) => {
    t.is(refusal(request(purchase as PurchaseCharge), initialRefundState), 'REFUND_NOTHING_CHARGED');
  });
}

test('one request per purchase', (t) => {
  t.is(refusal(request(), given(request())), 'REFUND_ALREADY_REQUESTED');
  t.is(refusal(request(), given(request(), review('rejected'))), 'REFUND_ALREADY_REQUESTED');
});

test('the message is bounded and never carries the claim in clear', (t) => {
  t.is(refusal(request(settled, 'x'.repeat(1001)), initialRefundState), 'REFUND_MESSAGE_INVALID');
  t.is(refusal(request(settled, `my claim is ${CLAIM}, please check`), initialRefundState), 'REFUND_MESSAGE_INVALID');
  t.is(refusal(request(settled, 'x'.repeat(1000)), initialRefundState), 'accepted');
  t.is(refusal(request(settled, ''), initialRefundState), 'accepted');
});

test('review: only a pending request; approve or reject once', (t) => {
  t.is(refusal(review('approved'), initialRefundState), 'REFUND_NOT_PENDING');
  t.is(given(request(), review('approved')).status, 'approved');
  t.is(given(request(), review('rejected')).status, 'rejected');
  t.is(refusal(review('approved'), given(request(), review('rejected'))), 'REFUND_NOT_PENDING');
  t.is(refusal(review('rejected'), given(request(), review('approved'))), 'REFUND_NOT_PENDING');
});

test('paid: only an approved request, never more than the charge, and a real transaction hash', (t) => {
  t.is(refusal(paid(), given(request())), 'REFUND_NOT_APPROVED');
  t.is(refusal(paid(), given(request(), review('rejected'))), 'REFUND_NOT_APPROVED');
  t.is(refusal(paid('20001'), given(request(), review('approved'))), 'REFUND_AMOUNT_EXCEEDS_CHARGE');
  t.is(refusal(paid('20000', '0x1234'), given(request(), review('approved'))), 'REFUND_INVALID_EVENT');
  const done = given(request(), review('approved'), paid('15000'));
  t.is(done.status, 'paid');
  t.deepEqual([done.payment?.transaction, done.payment?.amount_micro], [REFUND_TX, '15000']);
  t.is(refusal(paid(), done), 'REFUND_NOT_APPROVED');
});

test('review data its codec refuses is never appended (an empty note)', (t) => {
  t.is(
    refusal(
      { type: 'ReviewRefund', data: { decision: 'approved', note: '  ', operator: 'ana', at: NOW.toISOString() } },
      given(request()),
    ),
    'REFUND_INVALID_EVENT',
  );
});

test('evolve refuses an event it does not understand; fold of nothing is the initial state', (t) => {
  t.throws(() => evolveRefund(initialRefundState, { type: 'RefundSent', data: {} }), {
    instanceOf: UnknownRefundEvent,
  });
  t.throws(() => evolveRefund(initialRefundState, { type: 'RefundRequested', data: { purchase_id: 'nope' } }), {
    instanceOf: UnknownRefundEvent,
  });
  t.deepEqual(foldRefund([]), initialRefundState);
});
