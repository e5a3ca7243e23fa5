import { GATEWAY_VERSION, PurchaseId } from '@rights-preflight/wire/contract/common.js';
import type { RefundRequestBody, RefundView } from '@rights-preflight/wire/contract/refund.js';
import { handleCommand, readState } from '../command/handle-command.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import type { EventStore } from '../store/port.js';
import { claimMatches } from '../money-path/claim.js';
import { reportNotFound } from '../money-path/report-not-found.js';
import { loadPurchase } from '../money-path/purchase-stream.js';
import type { PurchaseState } from '../../streams/purchase/index.js';
import { refundDecider, refundStream, type PurchaseCharge, type RefundState } from '../../streams/refund/index.js';

// The buyer's side of refund requests (spec §3): file one for a purchase it holds the claim for, and
// read where it stands. The request is a record for an operator (`npm run ops -- refunds`); the service
// never transfers money because of it. Unknown purchase, missing or wrong claim: the report's 404.

export interface RefundDeps {
  store: EventStore;
  now: () => Date;
}

async function authorized(deps: RefundDeps, purchaseId: string, claim: string | undefined): Promise<PurchaseState> {
  if (!PurchaseId.is(purchaseId) || !claim) throw reportNotFound();
  const purchase = await loadPurchase(deps.store, purchaseId);
  if (!claimMatches(claim, purchase.quoted?.claim_sha256)) throw reportNotFound();
  return purchase;
}

function chargeOf(p: PurchaseState): PurchaseCharge {
  const moves = p.operator_moves;
  return {
    status: p.status,
    ...(p.checkpoint ? { authorization: { amount: p.checkpoint.amount, payer: p.checkpoint.payer } } : {}),
    ...(p.settled
      ? { settlement: { amount: p.settled.amount, payer: p.settled.payer, transaction: p.settled.transaction } }
      : {}),
    closedWithoutCharge: p.status === 'closed' && moves.at(-1)?.target === 'closed_no_charge',
  };
}

function refundView(purchaseId: string, s: RefundState): RefundView {
  const r = s.request!;
  return {
    version: GATEWAY_VERSION,
    purchase_id: purchaseId,
    status: s.status as RefundView['status'],
    reason: r.reason,
    charge: { amount_micro: r.charge.amount_micro, payer: r.charge.payer, transaction: r.charge.transaction },
    requested_at: r.at,
    automatic_transfer: false,
    ...(s.review ? { review: { decision: s.review.decision, note: s.review.note, at: s.review.at } } : {}),
    ...(s.payment
      ? { refund: { transaction: s.payment.transaction, amount_micro: s.payment.amount_micro, at: s.payment.at } }
      : {}),
  };
}

const readRefund = async (store: EventStore, purchaseId: string) =>
  (await readState(store, refundStream(purchaseId), refundDecider)).state;

/** 201 with the new request; 200 with the existing one when the same request is filed again. */
export async function requestRefund(
  deps: RefundDeps,
  body: RefundRequestBody,
  claim: string | undefined,
): Promise<{ status: 200 | 201; view: RefundView }> {
  const purchase = await authorized(deps, body.purchase_id, claim);
  const message = body.message ?? '';
  // One request per purchase (a concurrent one may win): the same request again is answered with the
  // record, a different one refused.
  const handled = await handleCommand(
    deps.store,
    refundStream(body.purchase_id),
    refundDecider,
    (s) =>
      s.status !== 'none'
        ? undefined
        : {
            type: 'RequestRefund' as const,
            data: {
              purchase_id: body.purchase_id,
              reason: body.reason,
              message,
              purchase: chargeOf(purchase),
              claim: claim!,
            },
            metadata: { now: deps.now() },
          },
    { retryOnConflict: 1 },
  );
  if (handled.events.length > 0) return { status: 201, view: refundView(body.purchase_id, handled.state) };
  const s = handled.state;
  if (s.request?.reason === body.reason && s.request.message === message)
    return { status: 200, view: refundView(body.purchase_id, s) };
  throw new Refusal(
    'REFUND_ALREADY_REQUESTED',
    `a refund request for this purchase exists (${s.status}); read it with GET`,
    { status: s.status },
  );
}

export async function refundStatus(
  deps: RefundDeps,
  purchaseId: string,
  claim: string | undefined,
): Promise<RefundView> {
  await authorized(deps, purchaseId, claim);
  const s = await readRefund(deps.store, purchaseId);
  if (s.status === 'none') throw new Refusal('REFUND_NOT_FOUND', 'no refund request for this purchase');
  return refundView(purchaseId, s);
}
