import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';
import { verifyAuthorization } from '../payment/verify-authorization.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import {
  PurchaseRefused,
  type OfferedState,
  type PurchaseCommandBody,
  type PurchaseState,
  type RefusalCode,
  streamName,
} from '../../streams/purchase/index.js';
import type { Hex } from './deps.js';
import { offerCommand, type Binding } from './offer.js';
import { paymentFromHeader } from './payment-signature.js';
import type { Redemption } from './redemption.js';
import { resumePurchase, type ResumeDeps } from './resume.js';
import { loadPurchase, readPurchase, runPurchaseCommand, unchangedBy } from './purchase-stream.js';
import { nextAppend } from '../store/next-append.js';

// Redemption of a quoted purchase, shared by every flow that sells a report against a bound payment:
// the quote flow (binding key = claim token, found by GET /v1/rights/reports/{id}) and the key-bound
// flows (preflight, ingestion gate: binding key = X-Service-Request). The caller has already proved
// the buyer may see this purchase (claim match, or the id derived from the key).
//
//   no PAYMENT-SIGNATURE   → the Offer command (`Offered` once; decide refuses an expired one), the offer
//   PAYMENT-SIGNATURE      → the checks decide cannot make (signature, chain simulation), each with its
//                            own code and nothing appended; then the CheckpointAuthorization command,
//                            settle, deliver
//   already checkpointed   → the same command again: decide answers nothing for the same payment (resume
//                            inline) and refuses another one (PURCHASE_ALREADY_PAYING)
//   delivered              → the stored delivery, no charge, no new signature

interface RedeemRequest {
  purchaseId: string;
  binding: Binding;
  paymentSignature: string | undefined;
  /** The signed-in payer asking (ingestion gate), for purchases pinned to one at quote time. */
  payer?: Hex;
}

/** How long a loser of the checkpoint race waits for the winner's outcome before answering in progress. */
const LOSER_WAIT_MS = 60_000;
const REORG_MARGIN_BLOCKS = 12n;
/** decide's refusals of a payment that are answered with the offer: nothing was stored or charged. */
const PAYMENT_REFUSALS: ReadonlySet<RefusalCode> = new Set([
  'PAYMENT_FROM_NOT_SIGNER',
  'AUTHORIZATION_MISMATCH',
  'PAYMENT_WINDOW_EXPIRED',
]);

export async function redeem(deps: ResumeDeps, req: RedeemRequest, known?: PurchaseState): Promise<Redemption> {
  const id = req.purchaseId;
  const current = known ?? (await loadPurchase(deps.store, id));
  const done = finished(current);
  if (done) return done;

  const payment = req.paymentSignature === undefined ? undefined : paymentFromHeader(req.paymentSignature);
  if (!current.checkpoint) {
    // Before an offer is made or a payment recorded: a relayer that cannot pay gas would take payments
    // it cannot settle. Nothing is stored, so nothing is charged (docs/decisions.md, "Relayer health").
    if (deps.relayerCanPay && !(await deps.relayerCanPay())) throw relayerUnderfunded();
    let offered: PurchaseState;
    try {
      const offer = offerCommand(deps, req.binding, req.payer);
      // A payment for a standing offer goes on from the state read above: its checkpoint is appended at that
      // state's revision, which checks it. Without a payment the 402 is answered from the stream as it stands.
      offered =
        (payment && unchangedBy(deps, current, offer)) ||
        (await runPurchaseCommand(deps, id, offer, { known: current, retryOnConflict: 1 })).state;
    } catch (err) {
      // Another request (another process, too) checkpointed a payment or delivered between our read
      // and the Offer command: this request is no longer the first, it joins what is under way.
      if (
        !(err instanceof PurchaseRefused) ||
        (err.code !== 'PURCHASE_ALREADY_PAYING' && err.code !== 'ALREADY_DELIVERED')
      )
        throw err;
      const now = finished(await loadPurchase(deps.store, id));
      if (now) return now;
      if (!payment) throw inProgress();
      return continueCheckpointed(deps, id, payment, { racing: true });
    }
    if (offered.status === 'offered')
      return payment ? pay(deps, id, offered, payment) : { kind: 'offer', purchaseId: id, offered: offered.offered };
    if (!payment) throw inProgress();
  } else if (!payment) {
    throw inProgress();
  }
  return continueCheckpointed(deps, id, payment, { racing: false, known: current });
}

/** A payment for an offered purchase: the checks decide cannot make, then the checkpoint. */
async function pay(deps: ResumeDeps, id: string, state: OfferedState, payment: PaymentPayload): Promise<Redemption> {
  const offer = state.offered;
  const answerWithOffer = (code: string, message: string, details?: Record<string, unknown>): Redemption => ({
    kind: 'offer',
    purchaseId: id,
    offered: offer,
    refused: { code, message, ...(details ? { details } : {}) },
  });

  // Every authorization check (verify-authorization.ts) before anything is stored; each refusal has its own code.
  const checked = await verifyAuthorization({
    payload: payment,
    requirements: offer.requirements,
    expectedNonce: offer.nonce,
    maxTotalMicro: state.quoted.max_total_micro,
    now: deps.now(),
    settlementWindowSeconds: deps.terms.settlementWindowSeconds,
  });
  if (!checked.ok) return answerWithOffer(checked.code, checked.message);
  // A payer whose recent settlements kept reverting is refused here, before anything is stored or sent.
  const refusedUntil = deps.payerFailures?.refusedUntil(checked.authorization.from, deps.now());
  if (refusedUntil) {
    const retryAfter = Math.max(1, Math.ceil((refusedUntil.getTime() - deps.now().getTime()) / 1000));
    return answerWithOffer(
      'PAYER_SETTLEMENTS_FAILING',
      "this payer's recent settlements reverted on chain or in simulation; " +
        `payments from it are refused for ${retryAfter} s (nothing was charged)`,
      { retry_after_seconds: retryAfter },
    );
  }
  // Read before verify: any transfer using this authorization is mined after it, so recovery can
  // search the logs from here rather than from block 0 (a few blocks of margin for reorgs).
  const fromBlock = await deps.settlement.blockNumber().then(
    (b) => (b > REORG_MARGIN_BLOCKS ? b - REORG_MARGIN_BLOCKS : 0n),
    () => undefined,
  );
  const verified = await deps.settlement.verify(payment, offer.requirements);
  if (!verified.isValid) {
    // A concurrent identical request may have checkpointed and settled meanwhile (nonce now used).
    if ((await loadPurchase(deps.store, id)).checkpoint)
      return continueCheckpointed(deps, id, payment, { racing: true });
    return answerWithOffer(
      'PAYMENT_REJECTED',
      'the payment was refused by settlement verification (nothing was charged)',
      { reason: verified.invalidReason ?? 'unknown' },
    );
  }
  try {
    return await continueCheckpointed(deps, id, payment, { racing: true, fromBlock, known: state });
  } catch (err) {
    if (err instanceof PurchaseRefused && PAYMENT_REFUSALS.has(err.code)) return answerWithOffer(err.code, err.message);
    throw err;
  }
}

/**
 * The CheckpointAuthorization command for this payment: appended when the purchase is offered, nothing
 * when this very payment is already checkpointed (an identical retry, or the race's winner), refused
 * when another one is. Then settle and deliver, or wait for whoever is doing it: `racing` (the purchase
 * was only offered when this request looked) and nothing appended means another request checkpointed
 * this same payment first, so its outcome is awaited rather than raced. `known` is the state this request
 * already read: the command is decided on it, and the walk goes on from the state it leads to.
 */
async function continueCheckpointed(
  deps: ResumeDeps,
  id: string,
  payment: PaymentPayload,
  opts: { racing: boolean; fromBlock?: bigint; known?: PurchaseState },
): Promise<Redemption> {
  const command = await checkpointCommand(deps, id, payment, opts.fromBlock);
  const run = await runPurchaseCommand(deps, id, command, {
    retryOnConflict: 1,
    ...(opts.known ? { known: opts.known } : {}),
  });
  if (run.appended) deps.crashAt?.('after-checkpoint');
  const loser = opts.racing && !run.appended;
  let outcome: PurchaseState;
  if (loser && !deps.inflight.has(id)) outcome = await waitForOutcome(deps, id, LOSER_WAIT_MS);
  else
    outcome = (await deps.inflight.run(id, () =>
      resumePurchase(deps, id, run.state, { justCheckpointed: run.appended }),
    )) as PurchaseState;
  const done = finished(outcome);
  if (!done) throw inProgress();
  return done;
}

async function checkpointCommand(
  deps: ResumeDeps,
  id: string,
  payment: PaymentPayload,
  fromBlock?: bigint,
): Promise<PurchaseCommandBody> {
  const auth = payment.payload.authorization;
  return {
    type: 'CheckpointAuthorization',
    data: {
      sealed_payment: await deps.seal(JSON.stringify(payment), id),
      payment_sha256: sha256Hex(canonicalJson(payment)),
      payer: auth.from,
      nonce: auth.nonce,
      amount: auth.value,
      valid_before: auth.validBefore,
      at: deps.now().toISOString(),
      ...(fromBlock !== undefined ? { from_block: fromBlock.toString() } : {}),
    },
  };
}

/**
 * Waits up to `timeoutMs` for the owner of the purchase (this process: joins it) to finish it. Woken by
 * the store's notification of the stream's next append, never by a timer: each wake reads the stream once.
 */
async function waitForOutcome(deps: ResumeDeps, id: string, timeoutMs: number): Promise<PurchaseState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (deps.inflight.has(id)) return (await deps.inflight.run(id, () => resumePurchase(deps, id))) as PurchaseState;
    const { state, position } = await readPurchase(deps.store, id);
    const left = deadline - Date.now();
    if (finished(state) || left <= 0) return state;
    await nextAppend(deps.store, streamName(id), position, left);
  }
}

/** The final answer of a purchase that has one: its delivery, or the held/stuck refusal. */
function finished(state: PurchaseState): Redemption | undefined {
  if (state.delivered) return { kind: 'delivered', delivered: state.delivered };
  if (state.held) {
    if (state.held.reason === 'SETTLEMENT_FAILED') {
      throw new Refusal(
        'SETTLEMENT_FAILED',
        'settlement of the recorded authorization was refused; the purchase is held for operator review',
        { reason: state.held.reason },
      );
    }
    throw new Refusal('PURCHASE_HELD', 'this purchase is held for operator review; nothing more will be charged', {
      reason: state.held.reason,
    });
  }
  if (state.stuck)
    throw new Refusal(
      'PURCHASE_HELD',
      'this purchase is on the operator investigation queue; nothing more will be charged',
      { reason: state.stuck.reason },
    );
  return undefined;
}

const inProgress = () =>
  new Refusal('PURCHASE_IN_PROGRESS', 'settlement of this purchase is in progress; retry the same request', {}, 2);

const relayerUnderfunded = () =>
  new Refusal(
    'RELAYER_UNDERFUNDED',
    'the service cannot pay settlement gas right now; retry later (nothing was charged)',
    {},
    30,
  );
