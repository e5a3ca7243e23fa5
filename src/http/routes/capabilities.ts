import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { Capabilities } from '../../contract/capabilities.js';
import { MAX_BUDGET_MICRO } from '../../../packages/buyer/src/wire/pricing/prices.js';
import { RESOURCE_URL_MAX_LENGTH } from '../../../packages/buyer/src/wire/rsl/resource-url.js';
import { NONCE_PREFIX } from '../../contract/offer.js';
import type { PaymentTerms } from '../../money-path/deps.js';
import { paymentTermsOnWire } from '../../money-path/payment-terms.js';
import type { RateLimitedRoute } from '../rate-limit.js';
import type { CapabilityEntry } from '../../products/listing.js';
import { SIGNAL_STANDARDS_READ } from '../../../packages/buyer/src/wire/signals/signal-observation.js';

// GET /v1/capabilities (spec §2.10): live coverage, products, prices, payment terms and evidence keys.
// Encoded through the codec so the answer can never drift from the contract.
export interface CapabilitiesDeps {
  coveredOrigins: () => string[];
  terms: PaymentTerms;
  evidenceKeys: { key_id: string; public_key: string }[];
  quoteTtlSeconds: number;
  /** The products, in the product registry's order, each enabled when this instance serves its routes. */
  products: readonly (CapabilityEntry & { enabled: boolean })[];
  /** The rate-limited routes, as the middleware applies them. */
  rateLimits: readonly RateLimitedRoute[];
  /** Paid requests one payer may have in progress at once (src/http/rate-limit.ts); 0 when paid work is not apart. */
  paidConcurrentPerPayer?: number;
  now: () => Date;
}

export function buildCapabilities(deps: CapabilitiesDeps): Capabilities {
  return Capabilities.encode({
    version: 'service-public-gateway-v1',
    legal_clearance: false,
    coverage: { origins: deps.coveredOrigins(), subdomains_implied: false },
    products: deps.products.map(({ sku, enabled, endpoint, tiers, purposes }) => ({
      sku,
      enabled,
      endpoint,
      tiers,
      purposes,
    })),
    payment: {
      ...paymentTermsOnWire(deps.terms),
      asset_symbol: 'USDC',
      asset_decimals: 6,
      eip712: deps.terms.eip712,
      request_binding: {
        extension: 'service-request-binding',
        nonce_prefix: NONCE_PREFIX,
        version: 'service-request-v1',
      },
      settlement_window_seconds: deps.terms.settlementWindowSeconds,
      max_timeout_seconds: deps.terms.maxTimeoutSeconds,
    },
    evidence: {
      format: 'service-evidence-v1',
      algorithm: 'Ed25519',
      keys: deps.evidenceKeys.map((k) => ({
        key_id: k.key_id,
        algorithm: 'Ed25519' as const,
        public_key: k.public_key,
      })),
    },
    limits: {
      resources_per_gate_call: { min: 1, max: 4 },
      resource_url_max_length: RESOURCE_URL_MAX_LENGTH,
      freshness_seconds: { min: 0, max: 3600, default: 300 },
      max_total_micro: MAX_BUDGET_MICRO.toString(),
      quote_ttl_seconds: deps.quoteTtlSeconds,
    },
    rate_limits: Object.fromEntries(
      deps.rateLimits.map((r) => [
        r.name,
        {
          method: r.method,
          path: r.path,
          requests_per_minute: r.limit.perMinute,
          burst: r.limit.burst,
          mcp_tools: [...(r.mcpTools ?? [])],
        },
      ]),
    ),
    paid_requests: {
      rate_limits_skipped: deps.paidConcurrentPerPayer ? deps.rateLimits.filter((r) => r.paid).map((r) => r.name) : [],
      concurrent_per_payer: deps.paidConcurrentPerPayer ?? 0,
      max_timeout_seconds: deps.terms.maxTimeoutSeconds,
    },
    mcp: { endpoint: '/mcp', paid_delivery: false },
    signals: { standards: SIGNAL_STANDARDS_READ.map((s) => ({ ...s })) },
    generated_at: deps.now().toISOString(),
  });
}

/**
 * The capabilities body is built at most once a second (its `generated_at` has second precision) and
 * sent as ready JSON text; its ETag covers everything but `generated_at`, so a client that already
 * holds the same coverage, prices, terms and keys gets 304 Not Modified.
 */
export function capabilitiesRouter(deps: CapabilitiesDeps): Router {
  const router = new Router();
  let cached: { second: number; json: string; etag: string } | undefined;
  const current = () => {
    const second = Math.floor(deps.now().getTime() / 1000);
    if (cached?.second === second) return cached;
    const body = buildCapabilities(deps);
    const { generated_at: _at, ...content } = body;
    const etag = `W/"${createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32)}"`;
    cached = { second, json: JSON.stringify(body), etag };
    return cached;
  };
  router.get('/v1/capabilities', (ctx) => {
    const c = current();
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.set('ETag', c.etag);
    if (ctx.get('If-None-Match') === c.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = c.json;
  });
  return router;
}
