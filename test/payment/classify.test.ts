import test from 'ava';
import { classifyRemoteSettle, classifySelfSettle } from '../../src/payment/settlement/classify.js';
import { redactFacilitatorMessage } from '../../src/payment/settlement/settlement.js';

// The settle contract, case by case: only "nothing can have moved" is a failure; doubt is ambiguous.

const tx = `0x${'ab'.repeat(32)}` as const;
const fb = { payer: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as const, amount: '20000' };

test('remote: success, nothing-moved reasons, pending, transfer mismatch, unknown reasons', (t) => {
  t.deepEqual(classifyRemoteSettle({ success: true, transaction: tx }, fb), {
    kind: 'success',
    transaction: tx,
    payer: fb.payer,
    amount: '20000',
  });
  t.deepEqual(
    classifyRemoteSettle({ success: false, transaction: '', errorReason: 'invalid_exact_evm_nonce_already_used' }, fb),
    { kind: 'failed', reason: 'invalid_exact_evm_nonce_already_used' },
  );
  t.deepEqual(
    classifyRemoteSettle({ success: false, transaction: tx, errorReason: 'invalid_exact_evm_transaction_failed' }, fb),
    { kind: 'failed', reason: 'invalid_exact_evm_transaction_failed', reverted: 'mined' },
    "the facilitator's transfer was mined and reverted: it counts against the payer",
  );
  t.deepEqual(
    classifyRemoteSettle(
      { success: false, transaction: '', errorReason: 'invalid_exact_evm_insufficient_balance' },
      fb,
    ),
    { kind: 'failed', reason: 'invalid_exact_evm_insufficient_balance', reverted: 'simulated' },
  );
  t.deepEqual(classifyRemoteSettle({ success: false, transaction: tx, errorReason: 'settlement_pending' }, fb), {
    kind: 'ambiguous',
    reason: 'settlement_pending',
    transaction: tx,
  });
  t.deepEqual(
    classifyRemoteSettle(
      { success: false, transaction: tx, errorReason: 'invalid_exact_evm_transfer_event_mismatch' },
      fb,
    ),
    { kind: 'ambiguous', reason: 'invalid_exact_evm_transfer_event_mismatch', transaction: tx },
  );
  t.is(classifyRemoteSettle({ success: false, transaction: '', errorReason: 'something_new' }, fb).kind, 'ambiguous');
  t.is(classifyRemoteSettle({ success: true, transaction: '' }, fb).kind, 'ambiguous');
});

test('self: what the relayer did decides between failed and ambiguous', (t) => {
  const failedTx = { success: false, transaction: '', errorReason: 'invalid_exact_evm_transaction_failed' };
  t.deepEqual(
    classifySelfSettle(failedTx, { stage: 'not-submitted' }, fb),
    { kind: 'failed', reason: 'invalid_exact_evm_transaction_failed' },
    'nothing was simulated to the end (an RPC failure): not a revert of the payer',
  );
  t.deepEqual(
    classifySelfSettle(failedTx, { stage: 'refused-before-broadcast' }, fb),
    { kind: 'failed', reason: 'invalid_exact_evm_transaction_failed', reverted: 'simulated' },
    'the simulation at the pending block reverted: nothing sent',
  );
  t.is(
    classifySelfSettle(failedTx, { stage: 'unknown' }, fb).kind,
    'ambiguous',
    'an RPC error after handing over the transaction is not a failure',
  );
  t.deepEqual(
    classifySelfSettle({ ...failedTx, transaction: tx }, { stage: 'sent', transaction: tx }, fb),
    { kind: 'failed', reason: 'invalid_exact_evm_transaction_failed', reverted: 'mined' },
    'mined and reverted',
  );
  t.deepEqual(
    classifySelfSettle(
      { success: false, transaction: tx, errorReason: 'settlement_pending' },
      { stage: 'sent', transaction: tx },
      fb,
    ),
    { kind: 'ambiguous', reason: 'settlement_pending', transaction: tx },
  );
  t.is(classifySelfSettle({ success: true, transaction: tx }, { stage: 'sent', transaction: tx }, fb).kind, 'success');
});

test('facilitator messages lose calldata-sized hex and extra lines', (t) => {
  const sig = `0x${'1f'.repeat(65)}`;
  const m = redactFacilitatorMessage(`The contract function "transferWithAuthorization" reverted.\nargs: (${sig})`);
  t.is(m, 'The contract function "transferWithAuthorization" reverted.');
  t.is(redactFacilitatorMessage(`bad ${sig}`), 'bad 0x…');
  t.is(redactFacilitatorMessage(undefined), undefined);
});
