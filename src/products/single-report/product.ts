import { GATEWAY_VERSION, SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { QuoteRequest, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { inputSha256 } from '@rights-preflight/wire/payment/binding.js';
import { singleReportPrice } from '@rights-preflight/wire/pricing/prices.js';
import type { ReportPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { Asked, Assessment, Product } from '../../money-path/product.js';
import { quoteSignalsPreview } from '../../report/report-signals.js';
import type { ResourceReading } from '../../rsl/reading.js';
import { unavailability } from '../../rsl/unavailability.js';
import { normalizeQuoteRequest } from './normalize.js';
import { draftSingleReport } from './single-report.js';

// The single report (SKU rights.preflight.v1) as a product (docs/decisions.md, "One sale flow"): one
// resource, one purpose; sold by POST /v1/rights/quote (./quote.ts) and the key-bound preflight
// (./preflight.ts).

/** The RSL reader as the service wires it for a single report. */
export interface SingleReportObserver {
  observe(resource: string, purpose: ReportPurpose, userClass: UserClass): Promise<ResourceReading>;
}

type SingleReportAsked = Asked<typeof SINGLE_REPORT_SKU>;

function askSingleReport(req: QuoteRequest, context: { coveredOrigins: readonly string[] }): SingleReportAsked {
  const input = normalizeQuoteRequest(req, context.coveredOrigins);
  return {
    input,
    input_sha256: inputSha256(input),
    price_micro: singleReportPrice(input.tier),
    max_total_micro: req.max_total_micro,
  };
}

/** No report is sold without RSL; the other signals are said for free, and never as permission. */
function assessSingleReport(asked: SingleReportAsked, reading: ResourceReading): Assessment<UnavailableQuote> {
  const { input } = asked;
  const nothingToBuy = unavailability(reading);
  const purposeReading = reading.purposes.find((p) => p.purpose === input.purpose);
  if (!purposeReading) throw new Error(`reading has no entry for ${input.purpose}`);
  if (nothingToBuy) {
    return {
      available: false,
      body: {
        version: GATEWAY_VERSION,
        available: false,
        ...nothingToBuy,
        resource: input.resource,
        purpose: input.purpose,
        input_sha256: asked.input_sha256,
        charge_micro: '0',
        legal_clearance: false,
        ...quoteSignalsPreview(reading, input.purpose, purposeReading.classification),
      },
    };
  }
  const { classification, decision } = purposeReading;
  return {
    available: true,
    subject: {
      resource: input.resource,
      purpose: input.purpose,
      tier: input.tier,
      user_class: input.user_class,
      input_sha256: asked.input_sha256,
      decision_preview: { classification, decision },
    },
    preview: { purpose: input.purpose, classification, decision },
  };
}

export const singleReportProduct = {
  sku: SINGLE_REPORT_SKU,
  normalize: askSingleReport,
  observe: (deps: SingleReportObserver, { input }: SingleReportAsked) =>
    deps.observe(input.resource, input.purpose, input.user_class),
  assess: assessSingleReport,
  draft: draftSingleReport,
} satisfies Product<
  typeof SINGLE_REPORT_SKU,
  QuoteRequest,
  SingleReportAsked,
  SingleReportObserver,
  ResourceReading,
  UnavailableQuote
>;
