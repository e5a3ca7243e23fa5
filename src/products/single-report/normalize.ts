import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { QuoteRequest } from '@rights-preflight/wire/contract/quote.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { canonicalResourceUrl } from '@rights-preflight/wire/rsl/resource-url.js';
import type { ReportPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { Tier } from '@rights-preflight/wire/pricing/prices.js';
import type { SingleReportInput } from '../../../streams/purchase/index.js';

/** The normalized input of a single report; its digest is bound into the payment nonce. */
export const singleReportInput = (
  resource: string,
  purpose: ReportPurpose,
  tier: Tier,
  userClass: UserClass,
): SingleReportInput => ({ sku: SINGLE_REPORT_SKU, resource, purpose, tier, user_class: userClass });

/** A quote request as its `Quoted` input: the resource proven canonical (spec §2.2), the user class defaulted. */
export function normalizeQuoteRequest(req: QuoteRequest, coveredOrigins: readonly string[]): SingleReportInput {
  const checked = canonicalResourceUrl(req.resource, coveredOrigins);
  if (!checked.ok) throw new Refusal(checked.code, checked.message, { field: 'resource' });
  return singleReportInput(checked.url, req.purpose, req.tier, req.user_class ?? 'commercial');
}
