import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import type {
  AvailableQuote,
  QuoteRequest,
  QuoteResponse,
  UnavailableQuote,
} from '@rights-preflight/wire/contract/quote.js';
import { GATEWAY_VERSION, SINGLE_REPORT_SKU, type Classification } from '@rights-preflight/wire/contract/common.js';
import { unavailability } from '../../rsl/unavailability.js';
import { singleReportPrice } from '@rights-preflight/wire/pricing/prices.js';
import { assertWithinBudget } from '../../pricing/budget.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { purchaseId, type PurchaseEventData } from '../../../streams/purchase/index.js';
import { claimSha256, claimTokenFor } from '../../money-path/claim.js';
import type { MoneyPathDeps } from '../../money-path/deps.js';
import { loadPurchase, recordQuote } from '../../money-path/purchase-stream.js';
import { reportPath } from '../../money-path/report-path.js';
import { paymentTermsOnWire } from '../../money-path/payment-terms.js';
import { signQuote } from '../../money-path/signed-quote.js';
import type { QuotedOf } from '../../money-path/product.js';
import { quoteSignalsPreview } from '../../money-path/report-signals.js';
import { singleReportProduct, type SingleReportObserver } from './product.js';

// POST /v1/rights/quote as an application service: validate → canonical URL → budget (before any
// fetch or append) → evaluate → no declaration: nothing stored, nothing charged; else `Quoted`.

export interface QuoteDeps extends MoneyPathDeps, SingleReportObserver {}

/**
 * `claimIsKey`: key-bound flows (preflight) — the buyer's X-Service-Request key is the credential, so
 * `claim_sha256` = sha256(key) and the same purchase is also readable at the report URL with the key
 * as X-Service-Claim; no HMAC claim is ever handed out for it.
 */
export async function quote(
  deps: QuoteDeps,
  req: QuoteRequest,
  idempotencyKey: string | undefined,
  opts: { claimIsKey?: boolean } = {},
): Promise<QuoteResponse> {
  const input = singleReportProduct.normalize(req, deps.coveredOrigins);
  const price = singleReportPrice(input.tier);
  assertWithinBudget(price, req.max_total_micro); // before any fetch or append
  const inputDigest = inputSha256(input);

  // The key of the purchase id: the buyer's Idempotency-Key, else a fresh 256-bit report id.
  const key = idempotencyKey ?? randomBytes(32).toString('hex');
  const id = purchaseId({ sku: SINGLE_REPORT_SKU, key_sha256: sha256Hex(key), input_sha256: inputDigest });
  if (idempotencyKey) {
    const existing = await loadPurchase(deps.store, id);
    if (existing.quoted) return availableFrom(deps, singleReportQuote(existing.quoted));
  }

  const reading = await singleReportProduct.observe(deps, input);
  const nothingToBuy = unavailability(reading);
  const purposeReading = reading.purposes.find((p) => p.purpose === input.purpose);
  if (!purposeReading) throw new Error(`reading has no entry for ${input.purpose}`);
  if (nothingToBuy) {
    // No report is sold without RSL; the other signals are said for free, and never as permission (docs/wire.md §15).
    const unavailable: UnavailableQuote = {
      version: GATEWAY_VERSION,
      available: false,
      ...nothingToBuy,
      resource: input.resource,
      purpose: input.purpose,
      input_sha256: inputDigest,
      charge_micro: '0',
      legal_clearance: false,
      ...quoteSignalsPreview(reading, input.purpose, purposeReading.classification),
    };
    return unavailable;
  }

  const claim = claimTokenFor(deps.claimSecret, id);
  const { signedQuote, expiresAt } = signQuote(deps, price, {
    purchase_id: id,
    sku: SINGLE_REPORT_SKU,
    resource: input.resource,
    purpose: input.purpose,
    tier: input.tier,
    user_class: input.user_class,
    input_sha256: inputDigest,
    decision_preview: { classification: purposeReading.classification, decision: purposeReading.decision },
  });
  // Two identical Idempotency-Key quotes may race: the second finds the stream quoted and asks nothing,
  // so both answer with the stored quote.
  const state = await recordQuote(
    deps,
    {
      purchase_id: id,
      sku: SINGLE_REPORT_SKU,
      input,
      input_sha256: inputDigest,
      max_total_micro: req.max_total_micro,
      price_micro: price.toString(),
      decision_preview: {
        purpose: input.purpose,
        classification: purposeReading.classification,
        decision: purposeReading.decision,
      },
      signed_quote: signedQuote,
      expires_at: expiresAt,
      claim_sha256: claimSha256(opts.claimIsKey && idempotencyKey ? idempotencyKey : claim),
      reading,
    },
    { retryOnConflict: idempotencyKey ? 1 : 0 },
  );
  // Quote was decided or was already recorded, so only a stream nobody could write is still none.
  if (state.status === 'none') throw new Error(`purchase ${id} has no quote after Quote`);
  return availableFrom(deps, singleReportQuote(state.quoted));
}

/** The quote response rebuilt from the stream (the claim is re-derived, never stored). */
export function availableFrom(deps: MoneyPathDeps, q: QuotedOf<typeof SINGLE_REPORT_SKU>): AvailableQuote {
  return {
    version: GATEWAY_VERSION,
    available: true,
    purchase_id: q.purchase_id,
    report_url: reportPath(q.purchase_id),
    claim_token: claimTokenFor(deps.claimSecret, q.purchase_id),
    resource: q.input.resource,
    purpose: q.input.purpose,
    tier: q.input.tier,
    user_class: q.input.user_class,
    input_sha256: q.input_sha256,
    decision_preview: q.decision_preview as AvailableQuote['decision_preview'],
    charge_micro: q.price_micro,
    payment: { ...paymentTermsOnWire(deps.terms), amount: q.price_micro },
    expires_at: q.expires_at,
    signed_quote: q.signed_quote as AvailableQuote['signed_quote'],
    legal_clearance: false,
    ...quoteSignalsPreview(q.reading, q.input.purpose, q.decision_preview.classification as Classification),
  };
}

/** The stream's quote as a single report's (its id is derived from the SKU, so no other SKU can be there). */
function singleReportQuote(q: PurchaseEventData<'Quoted'>): QuotedOf<typeof SINGLE_REPORT_SKU> {
  if (q.sku !== SINGLE_REPORT_SKU) throw new Error(`purchase ${q.purchase_id} is a ${q.sku} purchase`);
  return q;
}
