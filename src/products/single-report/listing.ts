import { IdempotencyKey, SINGLE_REPORT_SKU } from '@rights-preflight/wire/contract/common.js';
import { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import { QuoteRequest, QuoteResponse, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';
import { SINGLE_REPORT_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { REPORT_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import { MCP_QUOTE_TOOL } from '../../mcp/tools.js';
import { capabilityTiers, keyBound, type ProductListing } from '../listing.js';
import { singleReportOpenApi } from './openapi.js';
import { preflight, preflightDiscovery } from './preflight.js';
import { preflightRequestSchema } from './preflight-schema.js';
import { singleReportProduct, type SingleReportObserver } from './product.js';
import { quote } from './quote.js';

// The single report as the service lists it (./listing.ts of src/products): POST /v1/rights/quote (the
// buyer holds an HMAC claim and pays at the report URL), and the key-bound preflight (spec §4): its
// schema, its discovery (an empty POST) and the purchase.

export const singleReportListing: ProductListing<typeof SINGLE_REPORT_SKU, SingleReportObserver> = {
  product: singleReportProduct,
  observer: ({ rsl }) => ({
    observe: (resource, purpose, userClass) =>
      rsl.observe(resource, [purpose], { userClass, geo: null, freshnessSeconds: 300 }),
  }),
  bodies: { delivered: PaidReportResponse, unavailable: UnavailableQuote },
  capability: {
    sku: SINGLE_REPORT_SKU,
    endpoint: '/v1/rights/quote',
    tiers: capabilityTiers(SINGLE_REPORT_PRICE),
    purposes: [...REPORT_PURPOSES],
  },
  routes: [
    {
      method: 'post',
      path: '/v1/rights/quote',
      rateLimit: { name: 'quote', limit: 'quote', mcpTools: [MCP_QUOTE_TOOL] },
      request: QuoteRequest,
      async serve(deps, call) {
        const key = call.header('idempotency-key');
        if (key !== undefined && !IdempotencyKey.is(key))
          throw new Refusal(
            'INVALID_IDEMPOTENCY_KEY',
            'Idempotency-Key must be 16 to 128 characters of A-Z a-z 0-9 _ -',
          );
        const body = await quote(deps, call.body as QuoteRequest, key);
        // The answer carries a private claim token.
        return { kind: 'json', body, codec: QuoteResponse, cacheControl: 'no-store' };
      },
    },
    {
      method: 'get',
      path: '/v1/rights/preflight',
      serve: () => ({
        kind: 'json',
        body: preflightRequestSchema(),
        cacheControl: 'public, max-age=300',
        type: 'application/schema+json',
      }),
    },
    {
      method: 'post',
      path: '/v1/rights/preflight',
      rateLimit: { name: 'preflight', limit: 'preflight', paid: true },
      request: PreflightRequest,
      allowEmpty: true,
      serve(deps, call) {
        if (call.body === undefined)
          return { kind: 'json', body: preflightDiscovery(deps), codec: PreflightDiscovery, cacheControl: 'no-store' };
        return preflight(deps, call.body as PreflightRequest, keyBound(call));
      },
    },
  ],
  openapi: singleReportOpenApi,
};
