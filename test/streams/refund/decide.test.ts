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
  type RefundTransferOnChain,
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
const TREASURY = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const;
/** What the chain says of a refund transfer of `amount` from the treasury to the payer, unless `chain` says else. */
const paid = (
  amount = '20000',
  transaction: `0x${string}` = REFUND_TX,
  chain: Partial<RefundTransferOnChain> = {},
  senders: readonly `0x${string}`[] | 'any' = 'any',
): RefundCommandBody => ({
  type: 'RecordRefundPayment',
  data: {
    transaction,
    amount_micro: amount,
    note: 'sent by hand',
    operator: 'ana',
    at: NOW.toISOString(),
    onChain: {
      transaction,
      receipt: 'success',
      transfers: [{ from: TREASURY, to: PAYER, value: amount }],
      ...chain,
    },
    senders,
  },
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
  t.false('onChain' in done.payment! || 'senders' in done.payment!, 'the event holds the record, not the chain facts');
});

test('paid: only the refund the chain shows — a successful token transfer to the payer of the amount', (t) => {
  const approved = given(request(), review('approved'));
  const chain = (c: Partial<RefundTransferOnChain>, amount = '20000') => refusal(paid(amount, REFUND_TX, c), approved);
  t.is(chain({ receipt: 'missing', transfers: [] }), 'REFUND_TX_NOT_FOUND');
  t.is(chain({ receipt: 'reverted', transfers: [] }), 'REFUND_TX_FAILED');
  t.is(chain({ transfers: [] }), 'REFUND_TX_NOT_A_TRANSFER');
  t.is(chain({ transfers: [{ from: TREASURY, to: TREASURY, value: '20000' }] }), 'REFUND_TX_WRONG_RECIPIENT');
  t.is(chain({ transfers: [{ from: TREASURY, to: PAYER, value: '19999' }] }), 'REFUND_TX_WRONG_AMOUNT');
  t.is(chain({ transfers: [{ from: TREASURY, to: PAYER, value: '20000' }] }, '15000'), 'REFUND_TX_WRONG_AMOUNT');
  t.is(chain({ usedBy: 'b'.repeat(64) }), 'REFUND_TX_ALREADY_USED');
  // A mint, or the payer paying itself, is no refund whoever may send one.
  t.is(chain({ transfers: [{ from: `0x${'0'.repeat(40)}`, to: PAYER, value: '20000' }] }), 'REFUND_TX_WRONG_SENDER');
  t.is(
    chain({ transfers: [{ from: PAYER.toLowerCase() as `0x${string}`, to: PAYER, value: '20000' }] }),
    'REFUND_TX_WRONG_SENDER',
  );
  // Facts about another transaction prove nothing about this one.
  t.is(chain({ transaction: `0x${'99'.repeat(32)}` }), 'REFUND_INVALID_EVENT');
  // One matching transfer among others (a batch payout) is the refund; addresses compare in any case.
  t.is(
    chain({
      transfers: [
        { from: TREASURY, to: TREASURY, value: '5' },
        { from: TREASURY, to: PAYER.toLowerCase() as `0x${string}`, value: '20000' },
      ],
    }),
    'accepted',
  );
});

test('paid: with REFUND_SENDERS only a transfer from one of them', (t) => {
  const approved = given(request(), review('approved'));
  const other = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as const;
  t.is(refusal(paid('20000', REFUND_TX, {}, [other]), approved), 'REFUND_TX_WRONG_SENDER');
  t.is(refusal(paid('20000', REFUND_TX, {}, [other, TREASURY.toLowerCase() as `0x${string}`]), approved), 'accepted');
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
