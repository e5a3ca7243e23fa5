import type { AvailableQuote, QuoteRequest, QuoteResponse } from '@rights-preflight/wire/contract/quote.js';
import { GATEWAY_VERSION, type Classification } from '@rights-preflight/wire/contract/common.js';
import type { QuotedOf } from '../../money-path/product.js';
import {
  ask,
  hmacClaimSha256,
  paymentOnWire,
  purchaseHandles,
  quoteSale,
  type SaleDeps,
} from '../../money-path/sale.js';
import { quoteSignalsPreview } from '../../report/report-signals.js';
import { singleReportProduct, type SingleReportObserver } from './product.js';

// POST /v1/rights/quote: the sale's quote alone (../../money-path/sale.ts), the buyer holding an HMAC
// claim: validate → canonical URL → budget (before any fetch or append) → evaluate → no declaration:
// nothing stored, nothing charged; else `Quoted`. The purchase is offered and paid at its report URL.

type QuoteDeps = SaleDeps<SingleReportObserver>;

export async function quote(
  deps: QuoteDeps,
  req: QuoteRequest,
  idempotencyKey: string | undefined,
): Promise<QuoteResponse> {
  const asked = ask(deps, singleReportProduct, req);
  // The key of the purchase id: the buyer's Idempotency-Key, else a fresh 256-bit report id.
  const quoted = await quoteSale(deps, singleReportProduct, asked, {
    key: idempotencyKey,
    claimSha256: hmacClaimSha256(deps),
  });
  if (quoted.kind === 'unavailable') return quoted.body;
  return availableFrom(deps, quoted.state.quoted as QuotedOf<typeof singleReportProduct.sku>);
}

/** The quote response rebuilt from the stream (the claim is re-derived, never stored). */
function availableFrom(
  deps: Pick<QuoteDeps, 'claimSecret' | 'terms'>,
  q: QuotedOf<typeof singleReportProduct.sku>,
): AvailableQuote {
  if (q.sku !== singleReportProduct.sku) throw new Error(`purchase ${q.purchase_id} is a ${q.sku} purchase`);
  return {
    version: GATEWAY_VERSION,
    available: true,
    purchase_id: q.purchase_id,
    ...purchaseHandles(deps, q.purchase_id),
    resource: q.input.resource,
    purpose: q.input.purpose,
    tier: q.input.tier,
    user_class: q.input.user_class,
    input_sha256: q.input_sha256,
    decision_preview: q.decision_preview as AvailableQuote['decision_preview'],
    charge_micro: q.price_micro,
    payment: paymentOnWire(deps, q.price_micro),
    expires_at: q.expires_at,
    signed_quote: q.signed_quote as AvailableQuote['signed_quote'],
    legal_clearance: false,
    ...quoteSignalsPreview(q.reading, q.input.purpose, q.decision_preview.classification as Classification),
  };
}
