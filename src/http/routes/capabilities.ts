import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { MAX_BUDGET_MICRO } from '@rights-preflight/wire/pricing/prices.js';
import { RESOURCE_URL_MAX_LENGTH } from '@rights-preflight/wire/rsl/resource-url.js';
import { NONCE_PREFIX } from '@rights-preflight/wire/contract/offer.js';
import type { PaymentTerms } from '../../money-path/deps.js';
import { paymentTermsOnWire } from '../../money-path/payment-terms.js';
import type { RateLimitedRoute } from '../rate-limit.js';
import type { CapabilityEntry } from '../../products/listing.js';
import { SIGNAL_STANDARDS_READ } from '@rights-preflight/wire/signals/signal-observation.js';

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
 * The capabilities answer is kept as bytes: its content (everything but `generated_at`: coverage, products,
 * prices, terms, keys) is encoded, serialized and hashed only when it changes, and each new second only
 * splices that second's `generated_at` (second precision) onto the serialized content. Coverage, the one
 * part that changes while the service runs, is compared once a second, as before (docs/decisions.md,
 * "The embedded engine"). The ETag covers the content, so a client that already holds the same coverage,
 * prices, terms and keys gets 304 Not Modified.
 */
export function capabilitiesRouter(deps: CapabilitiesDeps): Router {
  const router = new Router();
  let content: { origins: string; head: string; etag: string } | undefined;
  let cached: { second: number; bytes: Buffer; etag: string } | undefined;
  const current = () => {
    const now = deps.now();
    const second = Math.floor(now.getTime() / 1000);
    if (cached?.second === second) return cached;
    const origins = deps.coveredOrigins().join(' ');
    if (content?.origins !== origins) {
      const { generated_at: _at, ...rest } = buildCapabilities(deps);
      const json = JSON.stringify(rest);
      const etag = `W/"${createHash('sha256').update(json).digest('hex').slice(0, 32)}"`;
      content = { origins, head: json.slice(0, -1), etag };
    }
    // buildCapabilities's `generated_at` is its last member: the same text JSON.stringify of it gives.
    const at = JSON.stringify(now.toISOString());
    cached = { second, bytes: Buffer.from(`${content.head},"generated_at":${at}}`), etag: content.etag };
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
    ctx.body = c.bytes;
  });
  return router;
}
