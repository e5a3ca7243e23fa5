import { isLeft } from 'fp-ts/lib/Either.js';
import { REVALIDATE_PATH, REVALIDATE_SKU, RevalidationUnavailable } from '../contract/revalidation.js';
import { sha256Hex } from '../evidence/digest.js';
import { revalidationInput } from '../products/revalidation/revalidation-input.js';
import type { Tier } from '../pricing/prices.js';
import { purchaseId } from '../../streams/purchase/purchase-id.js';
import type { BuyResult, BuyerLogEvent } from './buyer.js';
import type { BuyerCheckpoint } from './checkpoint-store.js';
import { BuyerRefused } from './errors.js';
import { verifyCheckpoint } from './verify-checkpoint.js';

// buyer.revalidate(checkpoints) (docs/wire.md §14): the question computed here (input_sha256, the
// published price per checkpoint), each checkpoint verified offline under the pinned key first, then
// the preflight-like key-bound purchase: 402 → check the offer → sign the bound nonce → checkpoint → pay,
// with the same resume and verification as every paid report. Kept apart from buyer.ts, which hands it
// its own steps (offer check and signing, delivery), so the flows share one money path.

export type RevalidateResult =
  | { status: 'unavailable'; reason: 'FETCH_FAILED'; input_sha256: string; charge_micro: '0' }
  | Exclude<BuyResult, { status: 'unavailable' }>;

/** What the buyer lends this flow: its pins, budget and paid-report steps. */
export interface RevalidateSteps {
  baseUrl: string;
  /** `<public base>/v1/rights/revalidate`: the binding resource of the nonce. */
  revalidateUrl: string;
  fetch: typeof globalThis.fetch;
  pinnedKey: string;
  log(e: BuyerLogEvent): void;
  assertAffordable(amount: bigint): void;
  newKey(): string;
  errorOf(res: Response): Promise<{ code: string; message: string }>;
  prepare(
    flow: BuyerCheckpoint['flow'],
    path: string,
    key: string,
    body: Record<string, unknown>,
    prHeader: string | null,
    x: { amount: string; purchase_id: string; resource: string; input_sha256: string },
  ): Promise<BuyerCheckpoint>;
  deliver(cp: BuyerCheckpoint, resumed: boolean): Promise<BuyResult>;
}

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

export async function revalidateWith(
  s: RevalidateSteps,
  checkpoints: readonly unknown[],
  opts: { tier?: Tier } = {},
): Promise<RevalidateResult> {
  checkpoints.forEach((c, i) => {
    const v = verifyCheckpoint(c, s.pinnedKey);
    if (!v.ok)
      throw new BuyerRefused('REVALIDATION_CHECKPOINT_INVALID', `checkpoint ${i} does not verify: ${v.reason}`);
  });
  const q = revalidationInput({ checkpoints, tier: opts.tier ?? 'fresh' });
  s.assertAffordable(q.price_micro);
  const key = s.newKey();
  const id = purchaseId({ sku: REVALIDATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
  const body = { checkpoints: [...checkpoints], tier: q.body.tier, max_total_micro: q.price_micro.toString() };
  s.log({ step: 'revalidate', purchase_id: id, checkpoints: checkpoints.length, price_micro: String(q.price_micro) });
  const res = await s.fetch(`${s.baseUrl}${REVALIDATE_PATH}`, {
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
    const e = await s.errorOf(res);
    throw new BuyerRefused('SERVICE_ERROR', `revalidate answered ${res.status} ${e.code}: ${e.message}`, {
      status: res.status,
      code: e.code,
    });
  }
  await res.arrayBuffer();
  const cp = await s.prepare('revalidate', REVALIDATE_PATH, key, body, res.headers.get('payment-required'), {
    amount: q.price_micro.toString(),
    purchase_id: id,
    resource: s.revalidateUrl,
    input_sha256: q.input_sha256,
  });
  return (await s.deliver(cp, false)) as RevalidateResult;
}
