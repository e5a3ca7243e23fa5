import { WINDOW_MARGIN_SECONDS } from '../payment/settlement-window.js';
import { WrongExpectedRevision } from '../store/port.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';
import type {
  PurchaseCommandBody,
  PurchaseEventData,
  PurchaseState,
  SettlingState,
} from '../../streams/purchase/index.js';
import type { MoneyPathDeps } from './deps.js';
import type { Broadcast, SettlementPort, TransferFound } from '../payment/settlement/port.js';
import { deliver, deliverCommand } from './deliver.js';
import { loadPurchase, runPurchaseCommands, type StepCommand } from './purchase-stream.js';

// Moves a checkpointed purchase to its end: settled and delivered, or held / stuck for an operator.
// The same code runs for the first settlement (right after the checkpoint), for a buyer's retry of
// the same PAYMENT-SIGNATURE, and for the recovery worker after a crash:
//   1. the chain first: authorizationState(payer, nonce). Used → the transfer, found among the
//      transactions the stream recorded before broadcasting them (their receipts; a log search only
//      when none of them made it) → RecordSettlement with what the chain shows (decide answers
//      `Settled`, or `Held` when it differs from the offer). Used but no transfer found → `LockStuck`.
//   2. unused, and a recorded transaction still pending at the node → wait for it, never send another
//      beside it; still pending after the wait → `SettlementSubmitted`, and the next pass decides.
//   3. unused, nothing pending, and the window still open → submit the same sealed authorization (never
//      a new one), each signed transaction written ahead as `SettlementBroadcast` before it is sent
//      (docs/decisions.md, "Write-ahead submission record"). Ambiguous (timeout, lost receipt) →
//      `SettlementSubmitted`, and the next pass decides.
//   4. unused and the window closed, or too many ambiguous attempts → `LockStuck`.
// Nothing is ever deleted or overwritten; only an operator moves a held or stuck purchase on. This
// file observes and reports; decide.ts judges.

export interface ResumeDeps extends MoneyPathDeps {
  settlement: SettlementPort;
}

const MAX_AMBIGUOUS_SUBMISSIONS = 5;
/** How long a pass waits for a recorded transaction the node still holds before leaving it to the next. */
const RECORDED_TRANSACTION_WAIT_MS = 15_000;

/**
 * Walks a purchase from the state the caller holds (or, for the recovery worker, from a fresh read) to
 * where this pass can take it, and returns the state it reached. Each step observes the world against the
 * state it was given, records what it saw with the command handler at that state's revision (no read),
 * and carries the evolved state on: a paid redemption reads its stream once, before the walk. A conflict
 * means another writer moved the stream: it is read again and the walk goes on from what it shows
 * (observations made against the old state cannot be re-decided on a new one, so this is the walk's
 * retry, not the handler's: docs/decisions.md, "One walk for a paid redemption").
 */
export async function resumePurchase(
  deps: ResumeDeps,
  id: string,
  known?: PurchaseState,
  opts: { justCheckpointed?: boolean } = {},
): Promise<PurchaseState> {
  let state = known ?? (await loadPurchase(deps.store, id));
  for (let step = 0; step < MAX_STEPS; step++) {
    try {
      const next = await advance(deps, id, state, step === 0 && opts.justCheckpointed === true);
      state = next.state;
      if (next.done) return state;
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision)) throw err;
      state = await loadPurchase(deps.store, id);
    }
  }
  return state;
}

/** Steps of one pass: settle (a few observations), deliver, and room for conflicts with other writers. */
const MAX_STEPS = 8;

interface Step {
  state: PurchaseState;
  /** Nothing more this pass can do: finished, or waiting on the chain (the next pass decides). */
  done: boolean;
}

/**
 * One step. `justCheckpointed`: this request appended the checkpoint a moment ago, after the chain simulated
 * the transfer successfully, so the authorization is taken as unused without asking; settle's own gas
 * estimate asks again, and a refusal there is followed by the authorizationState read below.
 */
async function advance(deps: ResumeDeps, id: string, state: PurchaseState, justCheckpointed = false): Promise<Step> {
  if (state.status === 'settled') return { state: await deliver(deps, id, state), done: false };
  // Only a checkpointed, unsettled purchase is settled here; delivered, locked or closed ones are done.
  if (state.status !== 'checkpointed' && state.status !== 'settlement_submitted') return { state, done: true };
  // Every command records what was observed against the state it was observed on, at that state's
  // revision. The write-ahead record moves the state on mid-settle (`current`).
  let current: PurchaseState = state;
  const record = async (...steps: [StepCommand, ...StepCommand[]]) => {
    current = (await runPurchaseCommands(deps, id, steps, { known: current })).state;
  };
  // The transfer the chain shows, and the delivery it leads to decided on the settled state, in one append;
  // a settlement that ends held (or a delivery that cannot be built) appends its own event alone.
  const settled = (transfer: TransferFound) => record(settlementObserved(transfer), deliverCommand(deps));
  const again = (): Step => ({ state: current, done: false });
  const done = (): Step => ({ state: current, done: true });
  const stuck = (reason: string, details: Record<string, unknown>, thisPass: string[]) =>
    record(stuckCommand(deps, state, reason, details, thisPass));
  const step: StepRecorder = { record, settled, stuck, again, done };

  const c = state.checkpoint;
  const untouched = justCheckpointed && state.status === 'checkpointed' && state.broadcasts.length === 0;
  const used = untouched ? false : await deps.settlement.authorizationState(c.payer, c.nonce).catch(() => undefined);
  if (used === undefined) {
    if (state.submissions >= MAX_AMBIGUOUS_SUBMISSIONS)
      await stuck('CHAIN_UNREACHABLE', {}, ['read_authorization_state']);
    return done(); // chain unreachable: the recovery worker tries again later
  }
  if (used) {
    const recorded = await recordedTransactions(deps.settlement, state, 0).catch(() => undefined);
    if (recorded === undefined) return done(); // chain unreachable: later
    const transfer = recorded.transfer ?? (await deps.settlement.findTransfer(transferQuery(c)));
    if (!transfer) {
      await stuck('AUTHORIZATION_USED_TRANSFER_NOT_FOUND', {}, ['read_authorization_state', 'find_transfer']);
      return done();
    }
    await settled(transfer);
    return again();
  }
  if (state.broadcasts.length > 0) {
    // A transaction written ahead may be waiting at the node (a crash after its broadcast, a slow block):
    // its fate decides this purchase, and another one beside it would only cost gas.
    const recorded = await recordedTransactions(deps.settlement, state, RECORDED_TRANSACTION_WAIT_MS).catch(
      () => undefined,
    );
    if (recorded === undefined) return done();
    if (recorded.transfer) {
      await settled(recorded.transfer);
      return again();
    }
    if (recorded.pending) {
      await record({
        type: 'RecordSubmission',
        data: { transaction: recorded.pending, reason: 'broadcast_pending', at: deps.now().toISOString() },
      });
      return done();
    }
    // Every recorded transaction was reverted or is unknown to the node: nothing of ours can still move it.
  }
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  if (nowSeconds + WINDOW_MARGIN_SECONDS >= Number(c.valid_before)) {
    await stuck('WINDOW_PASSED_UNSETTLED', { valid_before: c.valid_before }, [
      'read_authorization_state',
      'check_validity_window',
    ]);
    return done();
  }
  if (state.submissions >= MAX_AMBIGUOUS_SUBMISSIONS) {
    await stuck('SETTLEMENT_UNDECIDABLE', { submissions: state.submissions }, ['read_authorization_state']);
    return done();
  }

  return settleNow(deps, id, state, step);
}

/** How a step records what it observed and says where it ends (see `advance`). */
interface StepRecorder {
  record(command: PurchaseCommandBody): Promise<void>;
  settled(transfer: TransferFound): Promise<void>;
  stuck(reason: string, details: Record<string, unknown>, thisPass: string[]): Promise<void>;
  again(): Step;
  done(): Step;
}

/** Nothing decided the purchase yet and its window is open: settle it now, written ahead, and record the outcome. */
async function settleNow(
  deps: ResumeDeps,
  id: string,
  state: Extract<PurchaseState, { status: 'checkpointed' | 'settlement_submitted' }>,
  { record, settled, stuck, again, done }: StepRecorder,
): Promise<Step> {
  const c = state.checkpoint;
  const payment = JSON.parse(await deps.unseal(c.sealed_payment, id)) as PaymentPayload;
  let writeAhead: { failed: unknown } | undefined;
  const outcome = await deps.settlement.settle(payment, state.offered.requirements, {
    async beforeBroadcast(b) {
      try {
        await record({ type: 'RecordBroadcast', data: broadcastRecord(b, deps.now()) });
      } catch (err) {
        writeAhead = { failed: err };
        throw err;
      }
    },
  });
  // Not written ahead, so not sent: someone else moved the stream (WrongExpectedRevision: look again).
  if (writeAhead) throw writeAhead.failed;
  const at = deps.now().toISOString();
  if (outcome.kind === 'success') {
    deps.crashAt?.('after-settle');
    // The receipt settle waited for shows the transfer (self); else the chain is asked for it.
    const mined = outcome.transfer
      ? undefined
      : await deps.settlement
          .transactionOutcome({ transaction: outcome.transaction, payer: c.payer, nonce: c.nonce })
          .catch(() => undefined);
    const transfer =
      outcome.transfer ??
      (mined?.state === 'mined' && mined.transfer
        ? mined.transfer
        : await deps.settlement.findTransfer(transferQuery(c)));
    if (!transfer) {
      await record({
        type: 'RecordSubmission',
        data: { transaction: outcome.transaction, reason: 'receipt_without_transfer_log', at },
      });
      return again();
    }
    await settled(transfer);
    return again();
  }
  if (outcome.kind === 'ambiguous') {
    await record({
      type: 'RecordSubmission',
      data: { transaction: outcome.transaction ?? null, reason: outcome.reason, at },
    });
    return done(); // decided on the next pass (buyer retry or recovery worker), from the chain
  }
  if (outcome.kind === 'stuck') {
    // Given up at SETTLEMENT_MAX_FEE_GWEI, its account nonce filled (docs/decisions.md, "Fee cap, filler
    // transaction"): an operator checks the hashes; whichever one the chain shows mined is the truth.
    const details = {
      settle_reason: outcome.reason,
      transactions: outcome.transactions,
      relayer: outcome.relayer,
      account_nonce: String(outcome.accountNonce),
      ...(outcome.filler ? { filler: outcome.filler } : {}),
    };
    await stuck('SETTLEMENT_FEE_CAP', details, ['submit_settlement', 'bump_fees', 'fill_account_nonce']);
    return done();
  }
  // A definite refusal may still hide a transfer made by a concurrent submitter: ask the chain again.
  if (await deps.settlement.authorizationState(c.payer, c.nonce)) return again();
  // Nothing moved: held for an operator, as any settlement the chain refused. A transfer that reverted (its
  // simulation at the pending block, or mined) counts against its payer, whose payments are refused after
  // a few (docs/decisions.md, "Authorizations the relayer can settle in time").
  const reverted = outcome.reverted ? { reverted: outcome.reverted } : {};
  await record({
    type: 'Hold',
    data: { reason: 'SETTLEMENT_FAILED', details: { settle_reason: outcome.reason, ...reverted }, at },
  });
  if (outcome.reverted) deps.payerFailures?.record(c.payer, deps.now(), outcome.reverted);
  return done();
}

/**
 * What the chain says of the transactions this purchase recorded before broadcasting them: the transfer
 * one of them made, else the newest still pending at the node (each waited for up to `waitMs`).
 */
async function recordedTransactions(
  settlement: SettlementPort,
  state: SettlingState,
  waitMs: number,
): Promise<{ transfer?: TransferFound; pending?: PurchaseEventData<'SettlementBroadcast'>['transaction'] }> {
  const c = state.checkpoint;
  const outcomes = await Promise.all(
    state.broadcasts.map((b) =>
      settlement.transactionOutcome({ transaction: b.transaction, payer: c.payer, nonce: c.nonce, waitMs }),
    ),
  );
  const transfer = outcomes.find((o) => o.state === 'mined' && o.transfer);
  if (transfer?.state === 'mined' && transfer.transfer) return { transfer: transfer.transfer };
  const pending = state.broadcasts.filter((_, i) => outcomes[i]!.state === 'pending').at(-1);
  return pending ? { pending: pending.transaction } : {};
}

/** The write-ahead record of one signed transaction, as the stream stores it. */
const broadcastRecord = (b: Broadcast, now: Date): PurchaseEventData<'SettlementBroadcast'> => ({
  transaction: b.transaction,
  relayer: b.relayer,
  account_nonce: String(b.accountNonce),
  gas: b.gas.toString(),
  max_fee_per_gas: b.maxFeePerGas.toString(),
  max_priority_fee_per_gas: b.maxPriorityFeePerGas.toString(),
  at: now.toISOString(),
  ...(b.replaces ? { replaces: b.replaces } : {}),
});

/** The log search for the checkpointed authorization, from the block recorded with it (older streams: from 0). */
const transferQuery = (c: PurchaseEventData<'AuthorizationCheckpointed'>) => ({
  payer: c.payer,
  nonce: c.nonce,
  ...(c.from_block !== undefined ? { fromBlock: BigInt(c.from_block) } : {}),
});

/** Everything the chain shows about the transfer; decide compares it with the authorization and the offer. */
const settlementObserved = (t: TransferFound): PurchaseCommandBody => ({
  type: 'RecordSettlement',
  data: {
    network: t.network,
    transaction: t.transaction,
    payer: t.from,
    amount: t.value.toString(),
    block: t.block.toString(),
    asset: t.asset,
    pay_to: t.to,
    ...(t.confirmation ? { confirmation: t.confirmation } : {}),
  },
});

/**
 * `tried` lists the steps taken, in order: one `submit_settlement` per ambiguous submission since the
 * checkpoint (or the last operator retry), then this pass's own reads. `since` is the checkpoint time:
 * the authorization has been locked from then on.
 */
function stuckCommand(
  deps: MoneyPathDeps,
  state: SettlingState,
  reason: string,
  details: Record<string, unknown>,
  thisPass: string[],
): PurchaseCommandBody {
  const tried = [...Array.from({ length: state.submissions }, () => 'submit_settlement'), ...thisPass];
  return {
    type: 'MarkLockStuck',
    data: {
      reason,
      details,
      last_step: state.status,
      tried,
      at: deps.now().toISOString(),
      ...(state.checkpoint.at ? { since: state.checkpoint.at } : {}),
    },
  };
}
