import { getAddress } from 'viem';
import type { PaymentPayload } from '@x402/core/types';
import { WrongExpectedRevision } from '../store/port.js';
import type { MoneyPathDeps, Hex } from './deps.js';
import type { SettlementPort, TransferFound } from './settlement-port.js';
import { deliver } from './deliver.js';
import { execute, loadPurchase, type Loaded } from './stream.js';

// Moves a checkpointed purchase to its end: settled and delivered, or held / stuck for an operator.
// The same code runs for the first settlement (right after the checkpoint), for a buyer's retry of
// the same PAYMENT-SIGNATURE, and for the recovery worker after a crash:
//   1. the chain first: authorizationState(payer, nonce). Used → find the transfer → `Settled`
//      (or `Held` if amount/recipient/payer differ). Used but no transfer found → `LockStuck`.
//   2. unused and the window still open → submit the same sealed authorization (never a new one).
//      Ambiguous (timeout, lost receipt) → `SettlementSubmitted`, and the next pass decides.
//   3. unused and the window closed, or too many ambiguous attempts → `LockStuck`.
// Nothing is ever deleted or overwritten; only an operator moves a held or stuck purchase on.

export interface ResumeDeps extends MoneyPathDeps { settlement: SettlementPort }

/** FiatToken refuses at validBefore; the facilitator wants 6 s of margin for the block. */
const WINDOW_MARGIN_SECONDS = 6;
export const MAX_AMBIGUOUS_SUBMISSIONS = 5;

export async function resumePurchase(deps: ResumeDeps, id: string): Promise<Loaded> {
  for (let step = 0; step < 8; step++) {
    const loaded = await loadPurchase(deps.store, id);
    try {
      const next = await advance(deps, id, loaded);
      if (next === 'done') return loadPurchase(deps.store, id);
    } catch (err) {
      if (!(err instanceof WrongExpectedRevision)) throw err; // someone else moved it: look again
    }
  }
  return loadPurchase(deps.store, id);
}

async function advance(deps: ResumeDeps, id: string, loaded: Loaded): Promise<'again' | 'done'> {
  if (loaded.delivered || loaded.held || loaded.stuck || !loaded.checkpoint) return 'done';
  if (loaded.settled) { await deliver(deps, id, loaded); return 'again'; }

  const c = loaded.checkpoint;
  const used = await deps.settlement.authorizationState(c.payer, c.nonce).catch(() => undefined);
  if (used === undefined) {
    if (loaded.submissions >= MAX_AMBIGUOUS_SUBMISSIONS) { await stuck(deps, id, loaded, 'CHAIN_UNREACHABLE', {}, ['read_authorization_state']); return 'done'; }
    return 'done'; // chain unreachable: the recovery worker tries again later
  }
  if (used) {
    const transfer = await deps.settlement.findTransfer(transferQuery(c));
    if (!transfer) { await stuck(deps, id, loaded, 'AUTHORIZATION_USED_TRANSFER_NOT_FOUND', {}, ['read_authorization_state', 'find_transfer']); return 'done'; }
    await recordSettlement(deps, id, loaded, transfer);
    return 'again';
  }
  const nowSeconds = Math.floor(deps.now().getTime() / 1000);
  if (nowSeconds + WINDOW_MARGIN_SECONDS >= Number(c.valid_before)) {
    await stuck(deps, id, loaded, 'WINDOW_PASSED_UNSETTLED', { valid_before: c.valid_before }, ['read_authorization_state', 'check_validity_window']);
    return 'done';
  }
  if (loaded.submissions >= MAX_AMBIGUOUS_SUBMISSIONS) {
    await stuck(deps, id, loaded, 'SETTLEMENT_UNDECIDABLE', { submissions: loaded.submissions }, ['read_authorization_state']);
    return 'done';
  }

  const payment = JSON.parse(await deps.unseal(c.sealed_payment, id)) as PaymentPayload;
  const outcome = await deps.settlement.settle(payment, loaded.offered!.requirements);
  if (outcome.kind === 'success') {
    deps.crashAt?.('after-settle');
    const transfer = await deps.settlement.findTransfer(transferQuery(c));
    if (!transfer) {
      await execute(deps, id, loaded, { type: 'RecordSubmission', data: { transaction: outcome.transaction, reason: 'receipt_without_transfer_log', at: deps.now().toISOString() } });
      return 'again';
    }
    await recordSettlement(deps, id, loaded, transfer);
    return 'again';
  }
  if (outcome.kind === 'ambiguous') {
    await execute(deps, id, loaded, { type: 'RecordSubmission', data: { transaction: outcome.transaction ?? null, reason: outcome.reason, at: deps.now().toISOString() } });
    return 'done'; // decided on the next pass (buyer retry or recovery worker), from the chain
  }
  // A definite refusal may still hide a transfer made by a concurrent submitter: ask the chain again.
  if (await deps.settlement.authorizationState(c.payer, c.nonce)) return 'again';
  await execute(deps, id, loaded, { type: 'Hold', data: { reason: 'SETTLEMENT_FAILED', details: { settle_reason: outcome.reason }, at: deps.now().toISOString() } });
  return 'done';
}

/** The log search for the checkpointed authorization, from the block recorded with it (older streams: from 0). */
const transferQuery = (c: NonNullable<Loaded['checkpoint']>) =>
  ({ payer: c.payer, nonce: c.nonce, ...(c.from_block !== undefined ? { fromBlock: BigInt(c.from_block) } : {}) });

async function recordSettlement(deps: ResumeDeps, id: string, loaded: Loaded, t: TransferFound) {
  const c = loaded.checkpoint!;
  const req = loaded.offered!.requirements;
  const mismatches: Record<string, unknown> = {};
  if (t.value !== BigInt(c.amount) || t.value !== BigInt(req.amount)) mismatches.amount = { expected: req.amount, settled: t.value.toString() };
  if (getAddress(t.to) !== getAddress(req.payTo)) mismatches.recipient = { expected: req.payTo, settled: t.to };
  if (getAddress(t.from) !== getAddress(c.payer)) mismatches.payer = { expected: c.payer, settled: t.from };
  const settled = { network: req.network, transaction: t.transaction, payer: getAddress(t.from) as Hex, amount: t.value.toString(), block: t.block.toString() };
  if (Object.keys(mismatches).length > 0) {
    await execute(deps, id, loaded, { type: 'Hold', data: { reason: 'SETTLEMENT_MISMATCH', details: { mismatches, settlement: settled }, at: deps.now().toISOString() } });
    return;
  }
  await execute(deps, id, loaded, { type: 'RecordSettlement', data: settled });
}

/**
 * `tried` lists the steps taken, in order: one `submit_settlement` per ambiguous submission since the
 * checkpoint (or the last operator retry), then this pass's own reads. `since` is the checkpoint time:
 * the authorization has been locked from then on.
 */
async function stuck(deps: ResumeDeps, id: string, loaded: Loaded, reason: string, details: Record<string, unknown>, thisPass: string[]) {
  const tried = [...Array.from({ length: loaded.submissions }, () => 'submit_settlement'), ...thisPass];
  await execute(deps, id, loaded, {
    type: 'MarkLockStuck',
    data: { reason, details, last_step: loaded.status, tried, at: deps.now().toISOString(), ...(loaded.checkpoint?.at ? { since: loaded.checkpoint.at } : {}) },
  });
}
