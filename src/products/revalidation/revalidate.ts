import type { Admit } from '../../money-path/paid-admission.js';
import { GATEWAY_VERSION } from '@rights-preflight/wire/contract/common.js';
import {
  REVALIDATE_PATH,
  REVALIDATE_SKU,
  type RevalidateRequest,
  type RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import type { Binding } from '../../money-path/offer.js';
import { mostRestrictive } from '../../money-path/most-restrictive.js';
import { loadPurchase, recordQuote } from '../../money-path/purchase-stream.js';
import { redeem } from '../../money-path/redeem.js';
import type { Redemption } from '../../money-path/redemption.js';
import { reportReading } from '../../money-path/report-reading.js';
import { keySha256, requireServiceRequestKey } from '../../money-path/request-key.js';
import type { ResumeDeps } from '../../money-path/resume.js';
import { signQuote } from '../../money-path/signed-quote.js';
import { assertWithinBudget } from '../../pricing/budget.js';
import { unavailability } from '../../rsl/unavailability.js';
import { decisionFor } from '@rights-preflight/wire/rsl/vocabulary.js';
import { purchaseId, type PurchaseState } from '../../../streams/purchase/index.js';
import type { PublishedKey } from '@rights-preflight/wire/revalidation/checkpoint-check.js';
import type { NormalizedRevalidation } from './normalize.js';
import { revalidationProduct, type RevalidationObserver } from './product.js';
import { purposeOf } from './report.js';

// POST /v1/rights/revalidate as an application service, key-bound exactly as preflight (X-Service-Request,
// bound nonce, 402 first; no sign-in). Everything that can be refused without the network is refused
// before anything is fetched, stored or offered:
//   body rules → checkpoints (count, signature, key, coverage, duplicates, one question) → budget
//   → X-Service-Request → (first time) the earlier reports in our store.
// Then the purchase stream (id from {sku, sha256(key), input_sha256}): first time, observe every resource
// again and append `Quoted`; then the shared redeem path — `Offered` + 402, or the bound payment →
// checkpoint → settle → deliver.

export type RevalidateOutcome = Redemption | { kind: 'unavailable'; body: RevalidationUnavailable };

export interface RevalidateDeps extends ResumeDeps, RevalidationObserver {
  /** The evidence keys the service publishes (capabilities): a checkpoint must be signed by one. */
  evidenceKeys: readonly PublishedKey[];
}

export interface RevalidateHttpCall {
  body: RevalidateRequest;
  serviceRequest: string | undefined;
  paymentSignature: string | undefined;
  /** Paid or free work (money-path/paid-admission.ts), decided before anything is fetched. */
  admit?: Admit;
}

export async function revalidate(deps: RevalidateDeps, call: RevalidateHttpCall): Promise<RevalidateOutcome> {
  const revalidateUrl = deps.baseUrl + REVALIDATE_PATH;
  const n = revalidationProduct.normalize(
    { body: call.body, keys: deps.evidenceKeys, revalidateUrl },
    deps.coveredOrigins,
  );
  assertWithinBudget(n.price_micro, n.max_total_micro);
  const key = requireServiceRequestKey(call.serviceRequest);
  await call.admit?.({
    resource: revalidateUrl,
    key,
    inputSha256: n.input_sha256,
    priceMicro: n.price_micro,
    maxTotalMicro: n.max_total_micro,
  });
  const id = purchaseId({ sku: REVALIDATE_SKU, key_sha256: keySha256(key), input_sha256: n.input_sha256 });
  let state = await loadPurchase(deps.store, id);
  if (!state.quoted) {
    const quoted = await quoteRevalidation(deps, id, n, key);
    if ('unavailable' in quoted) return { kind: 'unavailable', body: quoted.unavailable };
    state = quoted.state;
  }
  const binding: Binding = { key, source: 'x-service-request' };
  return redeem(deps, { purchaseId: id, binding, paymentSignature: call.paymentSignature }, state);
}

async function quoteRevalidation(
  deps: RevalidateDeps,
  id: string,
  n: NormalizedRevalidation,
  key: string,
): Promise<{ state: PurchaseState } | { unavailable: RevalidationUnavailable }> {
  const reading = await revalidationProduct.observe(deps, n);
  const readings = reading.readings.map((r) => reportReading(r, id));
  // Could not look at any resource: as for a quote (spec §7), nothing stored, nothing charged. A resource
  // whose declaration is gone is not this: the withdrawal is what the buyer pays to learn (decisions.md).
  const failures = reading.readings.map((r) => unavailability(r));
  if (failures.every((u) => u?.reason === 'FETCH_FAILED')) {
    return {
      unavailable: {
        version: GATEWAY_VERSION,
        available: false,
        reason: 'FETCH_FAILED',
        input_sha256: n.input_sha256,
        details: { failures: failures.flatMap((u) => (u?.reason === 'FETCH_FAILED' ? u.details.failures : [])) },
        charge_micro: '0',
        legal_clearance: false,
      },
    };
  }
  const { input } = n;
  const entries = readings.map((r) => ({
    resource: r.resource,
    classification: purposeOf(r, input.purpose).classification,
  }));
  const combined = mostRestrictive(entries);
  const { signedQuote, expiresAt } = signQuote(deps, n.price_micro, {
    purchase_id: id,
    sku: REVALIDATE_SKU,
    resource: input.resource,
    resources: input.resources,
    purpose: input.purpose,
    tier: input.tier,
    user_class: input.user_class,
    geo: input.geo,
    input_sha256: n.input_sha256,
    classifications: entries,
  });
  const state = await recordQuote(
    deps,
    {
      purchase_id: id,
      sku: REVALIDATE_SKU,
      input,
      input_sha256: n.input_sha256,
      max_total_micro: n.max_total_micro,
      price_micro: n.price_micro.toString(),
      decision_preview: { purpose: input.purpose, classification: combined, decision: decisionFor(combined) },
      signed_quote: signedQuote,
      expires_at: expiresAt,
      claim_sha256: keySha256(key), // the key is the credential (also valid as X-Service-Claim at the report URL)
      reading,
    },
    { retryOnConflict: 1 },
  );
  return { state };
}
