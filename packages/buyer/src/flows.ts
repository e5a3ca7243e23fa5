import { isLeft } from 'fp-ts/lib/Either.js';
import type { AvailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { GATE_PATH, GATE_SKU, IngestionGateUnavailable } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { purchaseId } from '@rights-preflight/wire/contract/purchase-id.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { toBase64url } from '@rights-preflight/wire/crypto/base64url.js';
import { BuyerRefused } from './errors.js';
import { errorOf, type BuyerContext } from './context.js';
import { deliver } from './deliver.js';
import { gateHeaders } from './gate-sign-in.js';
import { pay } from './pay.js';
import { checkAvailableQuote, quote } from './quote.js';
import type { ReportRequest } from './options.js';
import type { BuyResult, GateRequest, GateResult } from './results.js';

// The three ways to buy (spec §5.6–§5.7, docs/wire.md), each quote → 402 offer → pay → deliver, and
// resume after a crash. Ambiguous outcomes after sending are resumed with the same checkpoint: never
// re-quoted, never re-signed.

const freshKey = () => toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));

async function unexpected(res: Response, what: string, withMessage = false): Promise<BuyerRefused> {
  const e = await errorOf(res);
  const message = `${what} ${res.status} ${e.code}${withMessage ? `: ${e.message}` : ''}`;
  return new BuyerRefused('SERVICE_ERROR', message, { status: res.status, code: e.code });
}

/** Nothing to buy, nothing charged; the free signals preview passed on when the service gave one. */
const unavailableResult = (q: UnavailableQuote): BuyResult => ({
  status: 'unavailable',
  reason: q.reason,
  resource: q.resource,
  charge_micro: '0',
  ...(q.signals_preview ? { signals_preview: q.signals_preview } : {}),
});

/**
 * A quote made earlier for this request (the CLI keeps the one `quote` printed): checked again against the
 * pins and its signature, and refused unless it is for this purpose and tier and has not expired.
 */
function keptQuote(ctx: BuyerContext, req: ReportRequest, q: AvailableQuote, now = Date.now()): AvailableQuote {
  checkAvailableQuote(ctx, q);
  if (q.purpose !== req.purpose || q.tier !== req.tier)
    throw new BuyerRefused('QUOTE_MISMATCH', 'the kept quote is for another purpose or tier');
  if (!(Date.parse(q.expires_at) > now)) throw new BuyerRefused('QUOTE_INVALID', 'the kept quote has expired');
  ctx.log({ step: 'quote.kept', purchase_id: q.purchase_id, charge_micro: q.charge_micro, expires_at: q.expires_at });
  return q;
}

/** The quote flow: quote (or the fresh quote already made for it), then the report URL's 402 offer, pay, deliver. */
export async function buyReport(ctx: BuyerContext, req: ReportRequest, kept?: AvailableQuote): Promise<BuyResult> {
  const q = kept ? keptQuote(ctx, req, kept) : await quote(ctx, req);
  if (!q.available) return unavailableResult(q);
  ctx.budget.assertAffordable(BigInt(q.charge_micro));
  ctx.log({ step: 'offer', purchase_id: q.purchase_id });
  const res = await ctx.fetch(`${ctx.baseUrl}${q.report_url}`, { headers: { 'x-service-claim': q.claim_token } });
  if (res.status !== 402) throw await unexpected(res, 'expected a 402 offer, got');
  await res.arrayBuffer();
  const cp = await pay(ctx, {
    flow: 'quote',
    path: q.report_url,
    key: q.claim_token,
    offerHeader: res.headers.get('payment-required'),
    expect: { amount: q.charge_micro, purchase_id: q.purchase_id, resource: q.resource, input_sha256: q.input_sha256 },
  });
  return deliver(ctx, cp, false);
}

/** The resource the offer binds (the service's canonical spelling of the requested URL), or ''. */
function offeredResource(offerHeader: string | null): string {
  try {
    return String(
      (JSON.parse(atob(offerHeader ?? '')) as { extensions?: Record<string, { info?: { resource?: string } }> })
        .extensions?.['service-request-binding']?.info?.resource ?? '',
    );
  } catch {
    return '';
  }
}

/** The preflight flow: one POST answered 402 with the offer, then pay and deliver. */
export async function preflight(ctx: BuyerContext, req: ReportRequest): Promise<BuyResult> {
  const key = freshKey();
  const budget = ctx.budget.remaining();
  ctx.budget.assertNotExhausted(budget);
  const userClass = req.user_class ?? 'commercial';
  const { resource, purpose, tier } = req;
  const body = { resource, purpose, tier, user_class: userClass, max_total_micro: budget.toString() };
  ctx.log({ step: 'preflight', resource, purpose, tier });
  const res = await ctx.fetch(`${ctx.baseUrl}/v1/rights/preflight`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-request': key },
    body: JSON.stringify(body),
  });
  if (res.status === 200) {
    const un = UnavailableQuote.decode(await res.json());
    if (isLeft(un) || un.right.charge_micro !== '0')
      throw new BuyerRefused(
        'QUOTE_INVALID',
        'a 200 preflight without payment must be an unavailable answer charging 0',
      );
    return unavailableResult(un.right);
  }
  if (res.status !== 402) throw await unexpected(res, 'preflight answered');
  const details = ((await res.json()) as { error?: { details?: { charge_micro?: string } } }).error?.details;
  const offerHeader = res.headers.get('payment-required');
  // The canonical resource and the input digest: the service canonicalizes the URL; the buyer accepts
  // it only if it is the same URL, and computes input_sha256 itself from its own request.
  const offered = offeredResource(offerHeader);
  if (!offered || !sameUrl(offered, resource))
    throw new BuyerRefused('BINDING_MISMATCH', 'the offer binds another resource than the one requested');
  const input = inputSha256({ sku: SINGLE_REPORT_SKU, resource: offered, purpose, tier, user_class: userClass });
  const amount = details?.charge_micro ?? '';
  if (!/^(0|[1-9][0-9]*)$/.test(amount)) throw new BuyerRefused('OFFER_INVALID', '402 body lacks charge_micro');
  const path = '/v1/rights/preflight';
  const expect = { amount, resource: offered, input_sha256: input };
  const cp = await pay(ctx, { flow: 'preflight', path, key, body, offerHeader, expect });
  return deliver(ctx, cp, false);
}

/**
 * POST /v1/rights/ingestion-gate for 1–4 resources (spec §2.3–§2.5, §5.5). The buyer computes the
 * normalized input and its digest itself, signs in as the payer over exactly this request, states the
 * payment intent, and pays only an offer for the published price of that input (base + per unique
 * URL); then the same checkpoint, resume and verification as every paid report.
 */
export async function ingestionGate(ctx: BuyerContext, req: GateRequest): Promise<GateResult> {
  const q = gateInput(req);
  const price = q.price_micro;
  ctx.budget.assertAffordable(price);
  const key = freshKey();
  const id = purchaseId({ sku: GATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
  const body = { ...q.body, max_total_micro: price.toString() };
  const { purpose, tier } = q.body;
  const resources = q.body.resources.length;
  ctx.log({ step: 'gate', purchase_id: id, resources, purpose, tier, price_micro: price.toString() });
  const expected = { resource: ctx.gateUrl, input_sha256: q.input_sha256, network: ctx.pins.network };
  try {
    const res = await ctx.fetch(`${ctx.baseUrl}${GATE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await gateHeaders(ctx, id, key, expected)) },
      body: JSON.stringify(body),
    });
    if (res.status === 200) return gateUnavailable(ctx, id, q.input_sha256, await res.json());
    if (res.status !== 402) throw await unexpected(res, 'ingestion gate answered', true);
    await res.arrayBuffer();
    const cp = await pay(ctx, {
      flow: 'gate',
      path: GATE_PATH,
      key,
      body,
      offerHeader: res.headers.get('payment-required'),
      expect: { amount: price.toString(), purchase_id: id, resource: ctx.gateUrl, input_sha256: q.input_sha256 },
    });
    return (await deliver(ctx, cp, false)) as GateResult;
  } finally {
    // Whatever the outcome, this call's proof is done with; a later resume() signs in afresh.
    ctx.signIns.delete(id);
  }
}

/** A gate's 200 without payment: an unavailable answer for exactly this input, charging 0. */
function gateUnavailable(ctx: BuyerContext, id: string, input: string, json: unknown): GateResult {
  const un = IngestionGateUnavailable.decode(json);
  if (isLeft(un) || un.right.input_sha256 !== input)
    throw new BuyerRefused(
      'QUOTE_INVALID',
      'a 200 gate answer without payment must be an unavailable answer for this input, charging 0',
    );
  ctx.log({ step: 'gate.unavailable', purchase_id: id, reason: un.right.reason });
  const resources = un.right.resources.map((r) => r.resource);
  return { status: 'unavailable', reason: un.right.reason, resources, input_sha256: input, charge_micro: '0' };
}

/** Resumes a checkpointed purchase (after a crash or RESUME_EXHAUSTED): the same authorization, never a new one. */
export async function resume(ctx: BuyerContext, purchaseId: string): Promise<BuyResult> {
  const cp = await ctx.store.load(purchaseId);
  if (!cp) throw new BuyerRefused('CHECKPOINT_MISSING', 'no checkpoint for this purchase');
  if (cp.base_url !== ctx.baseUrl)
    throw new BuyerRefused('CHECKPOINT_MISSING', 'the checkpoint belongs to another service');
  return deliver(ctx, cp, true);
}

function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    x.hash = '';
    y.hash = '';
    return x.href === y.href;
  } catch {
    return false;
  }
}
