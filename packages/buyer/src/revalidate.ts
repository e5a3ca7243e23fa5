import { isLeft } from 'fp-ts/lib/Either.js';
import {
  REVALIDATE_PATH,
  REVALIDATE_SKU,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { revalidationInput } from '@rights-preflight/wire/revalidation/revalidation-input.js';
import type { Tier } from '@rights-preflight/wire/pricing/prices.js';
import { purchaseId } from '@rights-preflight/wire/contract/purchase-id.js';
import { toBase64url } from '@rights-preflight/wire/crypto/base64url.js';
import { errorOf, type BuyerContext } from './context.js';
import { deliver } from './deliver.js';
import { BuyerRefused } from './errors.js';
import { pay } from './pay.js';
import type { BuyResult } from './results.js';
import { verifyCheckpoint } from './verify-checkpoint.js';

// buyer.revalidate(checkpoints) (docs/wire.md §14): the question computed here (input_sha256, the
// published price per checkpoint), each checkpoint verified offline under the pinned key first, then
// the preflight-like key-bound purchase: 402 → check the offer → sign the bound nonce → checkpoint → pay,
// with the same steps (./pay.ts, ./deliver.ts), resume and verification as every paid report.

export type RevalidateResult =
  | { status: 'unavailable'; reason: 'FETCH_FAILED'; input_sha256: string; charge_micro: '0' }
  | Exclude<BuyResult, { status: 'unavailable' }>;

/** A checkpoint as kept: the envelope, or a whole report / saved report whose resources carry them. */
export function checkpointsIn(value: unknown): unknown[] {
  const v = value as {
    payload?: { type?: unknown };
    response?: unknown;
    report?: { resources?: { checkpoint?: unknown }[] };
  };
  if (v?.payload?.type === 'checkpoint') return [value];
  if (v?.response !== undefined) return checkpointsIn(v.response);
  return (v?.report?.resources ?? []).map((r) => r.checkpoint).filter((c) => c !== null && c !== undefined);
}

export async function revalidate(
  ctx: BuyerContext,
  checkpoints: readonly unknown[],
  opts: { tier?: Tier } = {},
): Promise<RevalidateResult> {
  checkpoints.forEach((c, i) => {
    const v = verifyCheckpoint(c, ctx.pins.evidenceKey);
    if (!v.ok)
      throw new BuyerRefused('REVALIDATION_CHECKPOINT_INVALID', `checkpoint ${i} does not verify: ${v.reason}`);
  });
  const q = revalidationInput({ checkpoints, tier: opts.tier ?? 'fresh' });
  ctx.budget.assertAffordable(q.price_micro);
  const key = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const id = purchaseId({ sku: REVALIDATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
  const body = { checkpoints: [...checkpoints], tier: q.body.tier, max_total_micro: q.price_micro.toString() };
  ctx.log({ step: 'revalidate', purchase_id: id, checkpoints: checkpoints.length, price_micro: String(q.price_micro) });
  const res = await ctx.fetch(`${ctx.baseUrl}${REVALIDATE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-request': key },
    body: JSON.stringify(body),
  });
  if (res.status === 200) {
    const un = RevalidationUnavailable.decode(await res.json());
    if (isLeft(un) || un.right.input_sha256 !== q.input_sha256)
      throw new BuyerRefused('QUOTE_INVALID', 'a 200 revalidation without payment must be unavailable, charging 0');
    return { status: 'unavailable', reason: un.right.reason, input_sha256: q.input_sha256, charge_micro: '0' };
  }
  if (res.status !== 402) {
    const e = await errorOf(res);
    throw new BuyerRefused('SERVICE_ERROR', `revalidate answered ${res.status} ${e.code}: ${e.message}`, {
      status: res.status,
      code: e.code,
    });
  }
  await res.arrayBuffer();
  const cp = await pay(ctx, {
    flow: 'revalidate',
    path: REVALIDATE_PATH,
    key,
    body,
    offerHeader: res.headers.get('payment-required'),
    expect: {
      amount: q.price_micro.toString(),
      purchase_id: id,
      resource: ctx.revalidateUrl,
      input_sha256: q.input_sha256,
    },
  });
  return (await deliver(ctx, cp, false)) as RevalidateResult;
}
