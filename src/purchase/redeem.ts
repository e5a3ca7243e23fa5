import { createHash } from 'node:crypto';
import type { PaymentPayload } from '@x402/core/types';
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { canonicalJson } from '../evidence/canonical-json.js';
import { WrongExpectedRevision } from '../store/port.js';
import { verifyAuthorization } from '../payment/verify-authorization.js';
import type { Hex } from './deps.js';
import { moneyError } from './errors.js';
import { ensureOffered, offerAnswer, type Binding, type HttpAnswer } from './offer.js';
import { resumePurchase, type ResumeDeps } from './resume.js';
import { execute, loadPurchase, type Loaded } from './stream.js';

// Redemption of a quoted purchase, shared by every flow that sells a report against a bound payment:
// the quote flow (binding key = claim token, found by GET /v1/rights/reports/{id}) and the key-bound
// flows (preflight, ingestion gate: binding key = X-Service-Request). The caller has already proved
// the buyer may see this purchase (claim match, or the id derived from the key).
//
//   no PAYMENT-SIGNATURE   → `Offered` once, 402 with PAYMENT-REQUIRED
//   PAYMENT-SIGNATURE      → every check before anything is stored (own code each, nothing appended),
//                            `AuthorizationCheckpointed` at the expected revision, settle, deliver
//   already checkpointed   → same payment: resume inline; another payment: 409
//   delivered              → the stored delivery, no charge, no new signature

export interface RedeemRequest {
  purchaseId: string;
  binding: Binding;
  paymentSignature: string | undefined;
}

/** How long a loser of the checkpoint race waits for the winner's outcome before answering 409. */
const LOSER_WAIT_MS = 60_000;
const REORG_MARGIN_BLOCKS = 12n;

export async function redeem(deps: ResumeDeps, req: RedeemRequest, loaded?: Loaded): Promise<HttpAnswer> {
  const id = req.purchaseId;
  let current = loaded ?? (await loadPurchase(deps.store, id));
  const settledAnswer = finished(current);
  if (settledAnswer) return settledAnswer;

  if (!req.paymentSignature) {
    if (current.checkpoint) return inProgress();
    current = await ensureOffered(deps, id, current, req.binding);
    if (Date.parse(current.offered!.expires_at) <= deps.now().getTime()) {
      throw moneyError('OFFER_EXPIRED', 'the offer expired; request a new quote (nothing was charged)', { expires_at: current.offered!.expires_at });
    }
    return offerAnswer(current);
  }

  const payload = decodePayment(req.paymentSignature);
  const paymentSha = sha256(canonicalJson(payload));
  if (current.checkpoint) return continueCheckpointed(deps, id, current, paymentSha);

  current = await ensureOffered(deps, id, current, req.binding);
  if (current.checkpoint) return continueCheckpointed(deps, id, current, paymentSha);
  const offer = current.offered!;
  if (Date.parse(offer.expires_at) <= deps.now().getTime()) {
    throw moneyError('OFFER_EXPIRED', 'the offer expired; request a new quote (nothing was charged)', { expires_at: offer.expires_at });
  }

  // Every check of DESIGN.md §4 before anything is stored; each refusal has its own code.
  const checked = await verifyAuthorization({
    payload,
    requirements: offer.requirements,
    expectedNonce: offer.nonce,
    maxTotalMicro: current.quoted!.max_total_micro,
    now: deps.now(),
  });
  if (!checked.ok) return offerAnswer(current, checked.code, checked.message);
  // Read before verify: any transfer using this authorization is mined after it, so recovery can
  // search the logs from here rather than from block 0 (a few blocks of margin for reorgs).
  const fromBlock = await deps.settlement.blockNumber().then((b) => (b > REORG_MARGIN_BLOCKS ? b - REORG_MARGIN_BLOCKS : 0n), () => undefined);
  const verified = await deps.settlement.verify(payload, offer.requirements);
  if (!verified.isValid) {
    // A concurrent identical request may have checkpointed and settled meanwhile (nonce now used).
    const again = await loadPurchase(deps.store, id);
    if (again.checkpoint) return continueCheckpointed(deps, id, again, paymentSha, true);
    return offerAnswer(current, 'PAYMENT_REJECTED', 'the payment was refused by settlement verification (nothing was charged)', { reason: verified.invalidReason ?? 'unknown' });
  }

  const auth = checked.authorization;
  try {
    current = await execute(deps, id, current, {
      type: 'CheckpointAuthorization',
      data: {
        sealed_payment: await deps.seal(JSON.stringify(payload), id),
        payment_sha256: paymentSha,
        payer: auth.from as Hex,
        nonce: auth.nonce as Hex,
        amount: auth.value,
        valid_before: auth.validBefore,
        at: deps.now().toISOString(),
        ...(fromBlock !== undefined ? { from_block: fromBlock.toString() } : {}),
      },
    });
  } catch (err) {
    if (!(err instanceof WrongExpectedRevision)) throw err;
    // Lost the race: the winner's checkpoint decides; wait for its outcome.
    const again = await loadPurchase(deps.store, id);
    if (again.checkpoint) return continueCheckpointed(deps, id, again, paymentSha, true);
    return redeem(deps, req, again);
  }
  deps.crashAt?.('after-checkpoint');
  return continueCheckpointed(deps, id, current, paymentSha);
}

/** Same authorization → settle/deliver (inline resume) or wait for whoever is doing it. */
async function continueCheckpointed(deps: ResumeDeps, id: string, loaded: Loaded, paymentSha: string, loser = false): Promise<HttpAnswer> {
  if (loaded.checkpoint!.payment_sha256 !== paymentSha) {
    throw moneyError('PAYMENT_CONFLICT', 'another payment authorization is already recorded for this purchase; retry with that one (nothing was charged for this one)');
  }
  let outcome: Loaded;
  if (loser && !deps.inflight.has(id)) outcome = await waitForOutcome(deps, id, LOSER_WAIT_MS);
  else outcome = (await deps.inflight.run(id, () => resumePurchase(deps, id))) as Loaded;
  if (!finished(outcome)) outcome = await loadPurchase(deps.store, id);
  return finished(outcome) ?? inProgress();
}

async function waitForOutcome(deps: ResumeDeps, id: string, timeoutMs: number): Promise<Loaded> {
  const deadline = Date.now() + timeoutMs;
  let delay = 25;
  for (;;) {
    if (deps.inflight.has(id)) return (await deps.inflight.run(id, () => resumePurchase(deps, id))) as Loaded;
    const loaded = await loadPurchase(deps.store, id);
    if (finished(loaded) || Date.now() >= deadline) return loaded;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }
}

/** The final answer of a purchase that has one: its delivery, or the held/stuck refusal. */
function finished(loaded: Loaded): HttpAnswer | undefined {
  if (loaded.delivered) {
    return {
      status: 200,
      headers: { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(loaded.delivered.payment_response), 'Cache-Control': 'private, no-store' },
      body: loaded.delivered.response,
    };
  }
  if (loaded.held) {
    if (loaded.held.reason === 'SETTLEMENT_FAILED') throw moneyError('SETTLEMENT_FAILED', 'settlement of the recorded authorization was refused; the purchase is held for operator review', { reason: loaded.held.reason });
    throw moneyError('PURCHASE_HELD', 'this purchase is held for operator review; nothing more will be charged', { reason: loaded.held.reason });
  }
  if (loaded.stuck) throw moneyError('PURCHASE_HELD', 'this purchase is on the operator investigation queue; nothing more will be charged', { reason: loaded.stuck.reason });
  return undefined;
}

function inProgress(): HttpAnswer {
  throw moneyError('PURCHASE_IN_PROGRESS', 'settlement of this purchase is in progress; retry the same request', {}, { 'Retry-After': '2' });
}

function decodePayment(header: string): PaymentPayload {
  try {
    const p = decodePaymentSignatureHeader(header);
    if (typeof p !== 'object' || p === null || typeof p.payload !== 'object' || typeof p.accepted !== 'object') throw new Error('shape');
    return p;
  } catch {
    throw moneyError('PAYMENT_SIGNATURE_MALFORMED', 'PAYMENT-SIGNATURE is not base64 JSON of an x402 v2 PaymentPayload');
  }
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
