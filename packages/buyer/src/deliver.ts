import { isLeft } from 'fp-ts/lib/Either.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { IngestionGateUnavailable } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { decodePaymentResponse } from '@rights-preflight/wire/payment/x402-headers.js';
import { BuyerRefused } from './errors.js';
import { sameAddress, type BuyerContext } from './context.js';
import type { BuyerCheckpoint } from './checkpoint-store.js';
import { gateHeaders } from './gate-sign-in.js';
import type { BuyResult } from './results.js';
import { SAVED_REPORT_FORMAT, verifyPaidReport, type SavedReport } from './verify-report.js';
import { ingestionHold } from './report-signals.js';

// The deliver step: send the checkpointed payment until a definitive answer. Ambiguous outcomes
// (network error, timeout, 408/425/429/5xx, PURCHASE_IN_PROGRESS) resend the SAME header; a paid 200 is
// verified before it counts as delivered, and anything that fails verification is held, never a report.

const AMBIGUOUS_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function sendOnce(ctx: BuyerContext, cp: BuyerCheckpoint): Promise<Response> {
  const signal = AbortSignal.timeout(ctx.resume.requestTimeoutMs);
  if (cp.flow === 'quote') {
    return ctx.fetch(`${cp.base_url}${cp.path}`, {
      headers: { 'x-service-claim': cp.key, 'payment-signature': cp.payment_signature },
      signal,
    });
  }
  const privateHeaders =
    cp.flow === 'gate' ? await gateHeaders(ctx, cp.purchase_id, cp.key, cp.expected) : { 'x-service-request': cp.key };
  return ctx.fetch(`${cp.base_url}${cp.path}`, {
    method: 'POST',
    signal,
    headers: { 'content-type': 'application/json', ...privateHeaders, 'payment-signature': cp.payment_signature },
    body: JSON.stringify(cp.body ?? {}),
  });
}

const errorCodeOf = (status: number, text: string): string => {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? `HTTP_${status}`;
  } catch {
    return `HTTP_${status}`;
  }
};

/** Sends the checkpointed payment until a definitive answer; ambiguous outcomes resend the SAME header. */
export async function deliver(ctx: BuyerContext, cp: BuyerCheckpoint, resumedAlready: boolean): Promise<BuyResult> {
  const { attempts, delayMs } = ctx.resume;
  let resumed = resumedAlready;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) {
      resumed = true;
      await sleep(Math.min(delayMs * 2 ** (attempt - 2), 4_000));
    }
    ctx.log({ step: attempt === 1 && !resumedAlready ? 'send' : 'resume', purchase_id: cp.purchase_id, attempt });
    let res: Response;
    let text: string;
    try {
      res = await sendOnce(ctx, cp);
      text = await res.text();
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
      ctx.log({ step: 'ambiguous', purchase_id: cp.purchase_id, reason });
      continue;
    }
    if (res.status === 200) return accept(ctx, cp, res, text, resumed);
    if (AMBIGUOUS_STATUS.has(res.status)) {
      ctx.log({ step: 'ambiguous', purchase_id: cp.purchase_id, reason: `HTTP ${res.status}` });
      continue;
    }
    const code = errorCodeOf(res.status, text);
    if (code === 'PURCHASE_IN_PROGRESS') {
      ctx.log({ step: 'ambiguous', purchase_id: cp.purchase_id, reason: code });
      continue;
    }
    if (code === 'PURCHASE_HELD') {
      ctx.log({ step: 'held', purchase_id: cp.purchase_id, reason: code });
      const reason = 'the service holds this purchase for an operator (PURCHASE_HELD)';
      return { status: 'held', reason, purchase_id: cp.purchase_id };
    }
    // Definitive refusal: nothing was charged (docs/wire.md §6); the reservation is released.
    ctx.budget.release(BigInt(cp.expected.amount));
    await ctx.store.remove(cp.purchase_id);
    ctx.log({ step: 'refused', purchase_id: cp.purchase_id, code });
    throw new BuyerRefused('PAYMENT_REFUSED', `the service refused the payment (${code})`, {
      status: res.status,
      code,
    });
  }
  throw new BuyerRefused(
    'RESUME_EXHAUSTED',
    `no definitive answer after ${attempts} attempts; the checkpoint is kept: resume(purchase_id) later`,
    { purchase_id: cp.purchase_id },
  );
}

/** A gate's free "nothing available" answer for exactly this input, as the gate flow's result. */
function unavailableGate(body: unknown, inputSha256: string) {
  const un = IngestionGateUnavailable.decode(body);
  if (isLeft(un) || un.right.input_sha256 !== inputSha256 || un.right.charge_micro !== '0') return undefined;
  const resources = un.right.resources.map((r) => r.resource);
  return { status: 'unavailable', reason: un.right.reason, resources, input_sha256: inputSha256, charge_micro: '0' };
}

/** A paid 200: delivered when the report verifies (and PAYMENT-RESPONSE agrees), held otherwise. */
async function accept(
  ctx: BuyerContext,
  cp: BuyerCheckpoint,
  res: Response,
  text: string,
  resumed: boolean,
): Promise<BuyResult> {
  const settleHeader = res.headers.get('payment-response');
  const settle = settleHeader ? decodePaymentResponse(settleHeader) : undefined;
  const transaction = settle?.ok ? settle.value.transaction : undefined;
  const held = (reason: string): BuyResult => {
    ctx.log({ step: 'held', purchase_id: cp.purchase_id, reason, transaction });
    return { status: 'held', reason, purchase_id: cp.purchase_id, ...(transaction ? { transaction } : {}) };
  };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return held('paid response is not JSON');
  }
  const nothing = cp.offer_receipt === null && unavailableGate(body, cp.expected.input_sha256);
  if (nothing) {
    // Paid before any offer, and the service found nothing to sell: it stored nothing and the authorization,
    // bound to this purchase alone, is never used (docs/wire.md §11).
    ctx.budget.release(BigInt(cp.expected.amount));
    await ctx.store.remove(cp.purchase_id);
    ctx.log({ step: 'gate.unavailable', purchase_id: cp.purchase_id, reason: nothing.reason });
    return nothing as unknown as BuyResult;
  }
  const binding = { resource: cp.expected.resource, input_sha256: cp.expected.input_sha256, nonce: cp.expected.nonce };
  const expected = { ...cp.expected, purchase_id: cp.purchase_id };
  const input = { response: body, offerReceipt: cp.offer_receipt, binding, expected, bindingKey: cp.key };
  const v = verifyPaidReport(input, ctx.pins.evidenceKey);
  if (!v.ok) return held(v.reason);
  if (
    settle?.ok &&
    (settle.value.transaction.toLowerCase() !== v.transaction.toLowerCase() ||
      (settle.value.payer && !sameAddress(settle.value.payer, v.payer)))
  ) {
    return held('PAYMENT-RESPONSE differs from the signed delivery proof');
  }
  await ctx.store.remove(cp.purchase_id);
  ctx.log({ step: 'delivered', purchase_id: cp.purchase_id, transaction: v.transaction, amount_micro: v.amount });
  const hold = ingestionHold(v.signals, ctx.holdOnOtherSignals);
  if (hold) ctx.log({ step: 'ingestion-held', purchase_id: cp.purchase_id, reason: hold.reason });
  const saved: SavedReport = {
    format: SAVED_REPORT_FORMAT,
    service: cp.base_url,
    evidence_key: { key_id: keyIdOf(ctx.pins.evidenceKey), public_key: ctx.pins.evidenceKey },
    binding: { ...binding, key_source: cp.flow === 'quote' ? 'x-service-claim' : 'x-service-request' },
    offer_receipt: cp.offer_receipt,
    response: body,
  };
  return {
    status: 'delivered',
    purchase_id: cp.purchase_id,
    response: body as Extract<BuyResult, { status: 'delivered' }>['response'],
    classifications: v.classifications,
    ingestion_hold: hold,
    transaction: v.transaction,
    amount_micro: v.amount,
    payer: v.payer,
    saved,
    resumed,
  };
}
