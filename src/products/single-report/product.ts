import { SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import type { QuoteRequest } from '@rights-preflight/wire/contract/quote.js';
import type { Product } from '../../money-path/product.js';
import type { ReportPurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from '../../rsl/reading.js';
import type { SingleReportInput } from '../../../streams/purchase/index.js';
import { normalizeQuoteRequest } from './normalize.js';
import { draftSingleReport } from './single-report.js';

// The single report (SKU rights.preflight.v1) as a product (docs/decisions.md, "Products on the money
// path"): one resource, one purpose; sold by POST /v1/rights/quote (./quote.ts) and the key-bound
// preflight (./preflight.ts).

/** The RSL reader as the service wires it for a single report. */
export interface SingleReportObserver {
  observe(resource: string, purpose: ReportPurpose, userClass: UserClass): Promise<ResourceReading>;
}

export const singleReportProduct = {
  sku: SINGLE_REPORT_SKU,
  normalize: normalizeQuoteRequest,
  observe: (deps: SingleReportObserver, input: SingleReportInput) =>
    deps.observe(input.resource, input.purpose, input.user_class),
  draft: draftSingleReport,
} satisfies Product<typeof SINGLE_REPORT_SKU, QuoteRequest, SingleReportInput, SingleReportObserver, ResourceReading>;
