import { REVALIDATE_SKU } from '../contract/revalidation.js';
import { inputSha256 } from '../payment/binding.js';
import { revalidationPrice, type Tier } from '../pricing/prices.js';

// The question a revalidation asks, in the one form both sides digest (docs/wire.md §14), like the
// gate's: input_sha256 = sha256(JCS({type:'http', method:'POST', bodyType:'json', body:{checkpoints, tier}}))
// with the checkpoints exactly as sent (envelopes, request order) and the tier defaulted. The budget is
// not part of it. Browser-safe: the buyer computes the digest and the nonce before its first request.

export interface RevalidationBody {
  checkpoints: readonly unknown[];
  tier: Tier;
}

export interface RevalidationQuestion {
  sku: typeof REVALIDATE_SKU;
  body: RevalidationBody;
  input_sha256: string;
  /** Per checkpoint (spec §4 style: per unique URL; duplicates are refused). */
  price_micro: bigint;
}

export function revalidationInput(q: { checkpoints: readonly unknown[]; tier?: Tier }): RevalidationQuestion {
  const body: RevalidationBody = { checkpoints: q.checkpoints, tier: q.tier ?? 'fresh' };
  return {
    sku: REVALIDATE_SKU,
    body,
    input_sha256: inputSha256({ type: 'http', method: 'POST', bodyType: 'json', body }),
    price_micro: revalidationPrice(body.tier, body.checkpoints.length),
  };
}
