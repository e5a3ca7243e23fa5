import { ApiError } from '../http/errors.js';
import { GATEWAY_VERSION } from '../http/wire/common.js';
import type { RefundRequestBody, RefundView } from '../http/wire/refund.js';
import { WrongExpectedRevision, type EventStore } from '../store/port.js';
import { claimMatches } from '../purchase/claim.js';
import { reportNotFound } from '../purchase/errors.js';
import { loadPurchase, type Loaded } from '../purchase/stream.js';
import { toNewEvents } from '../../streams/purchase/append.js';
import {
  decideRefund, evolveRefund, foldRefund, refundStream, RefundRefused, type PurchaseCharge, type RefundRefusalCode, type RefundState,
} from '../../streams/refund/index.js';

// The buyer's side of refund requests (spec §3): file one for a purchase it holds the claim for, and
// read where it stands. The request is a record for an operator (`npm run ops -- refunds`); the service
// never transfers money because of it. Unknown purchase, missing or wrong claim: the report's 404.

export interface RefundDeps { store: EventStore; now: () => Date }

const STATUS_OF: Record<RefundRefusalCode, number> = {
  REFUND_NOTHING_CHARGED: 409,
  REFUND_ALREADY_REQUESTED: 409,
  REFUND_MESSAGE_INVALID: 422,
  REFUND_NOT_PENDING: 409,
  REFUND_NOT_APPROVED: 409,
  REFUND_AMOUNT_EXCEEDS_CHARGE: 422,
  REFUND_INVALID_EVENT: 422,
};

async function authorized(deps: RefundDeps, purchaseId: string, claim: string | undefined): Promise<Loaded> {
  if (!/^[0-9a-f]{64}$/.test(purchaseId) || !claim) throw reportNotFound();
  const loaded = await loadPurchase(deps.store, purchaseId);
  if (!loaded.quoted || !claimMatches(claim, loaded.quoted.claim_sha256)) throw reportNotFound();
  return loaded;
}

export function chargeOf(p: Loaded): PurchaseCharge {
  const moves = p.state?.operator_moves ?? [];
  return {
    status: p.status,
    ...(p.checkpoint ? { authorization: { amount: p.checkpoint.amount, payer: p.checkpoint.payer } } : {}),
    ...(p.settled ? { settlement: { amount: p.settled.amount, payer: p.settled.payer, transaction: p.settled.transaction } } : {}),
    closedWithoutCharge: p.status === 'closed' && moves.at(-1)?.target === 'closed_no_charge',
  };
}

export function refundView(purchaseId: string, s: RefundState): RefundView {
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
    ...(s.payment ? { refund: { transaction: s.payment.transaction, amount_micro: s.payment.amount_micro, at: s.payment.at } } : {}),
  };
}

const readRefund = async (store: EventStore, purchaseId: string) => foldRefund(await store.readStream(refundStream(purchaseId)));

/** 201 with the new request; 200 with the existing one when the same request is filed again. */
export async function requestRefund(deps: RefundDeps, body: RefundRequestBody, claim: string | undefined): Promise<{ status: 200 | 201; view: RefundView }> {
  const purchase = await authorized(deps, body.purchase_id, claim);
  const message = body.message ?? '';
  // One request per purchase: the same request again is answered with the record, a different one refused.
  const answerExisting = (s: RefundState): { status: 200; view: RefundView } => {
    if (s.request?.reason === body.reason && s.request.message === message) return { status: 200, view: refundView(body.purchase_id, s) };
    throw new ApiError(409, 'REFUND_ALREADY_REQUESTED', `a refund request for this purchase exists (${s.status}); read it with GET`, { status: s.status });
  };
  const existing = await readRefund(deps.store, body.purchase_id);
  if (existing.status !== 'none') return answerExisting(existing);
  let events;
  try {
    events = decideRefund({ type: 'RequestRefund', data: { purchase_id: body.purchase_id, reason: body.reason, message, purchase: chargeOf(purchase), claim: claim! } }, existing, deps.now());
  } catch (err) {
    if (err instanceof RefundRefused) throw new ApiError(STATUS_OF[err.code], err.code, err.message);
    throw err;
  }
  try {
    await deps.store.append(refundStream(body.purchase_id), toNewEvents(events), 'no_stream');
  } catch (err) {
    if (!(err instanceof WrongExpectedRevision)) throw err;
    return answerExisting(await readRefund(deps.store, body.purchase_id)); // a concurrent request won
  }
  return { status: 201, view: refundView(body.purchase_id, events.reduce(evolveRefund, existing)) };
}

export async function refundStatus(deps: RefundDeps, purchaseId: string, claim: string | undefined): Promise<RefundView> {
  await authorized(deps, purchaseId, claim);
  const s = await readRefund(deps.store, purchaseId);
  if (s.status === 'none') throw new ApiError(404, 'REFUND_NOT_FOUND', 'no refund request for this purchase');
  return refundView(purchaseId, s);
}
