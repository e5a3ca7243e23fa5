import { GATE_PATH, GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { gateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { purchaseId } from '@rights-preflight/wire/contract/purchase-id.js';
import { toBase64url } from '@rights-preflight/wire/crypto/base64url.js';
import type { BuyerContext } from './context.js';
import { deliver } from './deliver.js';
import { payUpfront, type UpfrontTerms } from './pay.js';
import type { GateRequest, GateResult } from './results.js';

// An ingestion-gate call paid on its first request (docs/wire.md, "Rate limits"): the same question, key,
// sign-in, intent, checkpoint, resume and verification as flows.ts `ingestionGate`, without the unpaid
// request that quotes and answers 402. That request is free work, limited per client address; a request
// whose payment verifies is paid work and is not, so a pipeline that pays is never throttled by it.

export interface UpfrontGateOptions {
  /** The offer's terms, from capabilities (`paid_requests.max_timeout_seconds`, `payment.eip712`). */
  terms: UpfrontTerms;
  /** Runs with the purchase id once it is known and before anything is signed or sent (a manifest line). */
  beforePay?: (purchaseId: string) => Promise<void>;
}

export async function ingestionGateUpfront(
  ctx: BuyerContext,
  req: GateRequest,
  o: UpfrontGateOptions,
): Promise<GateResult> {
  const q = gateInput(req);
  const price = q.price_micro;
  ctx.budget.assertAffordable(price);
  const key = toBase64url(globalThis.crypto.getRandomValues(new Uint8Array(32)));
  const id = purchaseId({ sku: GATE_SKU, key_sha256: sha256Hex(key), input_sha256: q.input_sha256 });
  const body = { ...q.body, max_total_micro: price.toString() };
  const { purpose, tier } = q.body;
  ctx.log({
    step: 'gate',
    purchase_id: id,
    resources: q.body.resources.length,
    purpose,
    tier,
    price_micro: `${price}`,
  });
  await o.beforePay?.(id);
  try {
    const cp = await payUpfront(ctx, {
      flow: 'gate',
      path: GATE_PATH,
      key,
      body,
      offerHeader: null,
      purchase_id: id,
      upfront: o.terms,
      expect: { amount: price.toString(), purchase_id: id, resource: ctx.gateUrl, input_sha256: q.input_sha256 },
    });
    return (await deliver(ctx, cp, false)) as GateResult;
  } finally {
    ctx.signIns.delete(id);
  }
}
