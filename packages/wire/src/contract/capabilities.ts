import * as t from 'io-ts';
import { PaymentTermsWire } from './common.js';
import { SignalStandard } from '../signals/signal-observation.js';

// GET /v1/capabilities (spec §2.10). Prices are decimal strings of micro-USDC.
const Product = t.type({
  sku: t.string,
  enabled: t.boolean,
  endpoint: t.string,
  tiers: t.record(t.string, t.type({ base_micro: t.string, per_url_micro: t.string })),
  purposes: t.array(t.string),
});

export const Capabilities = t.type({
  version: t.literal('service-public-gateway-v1'),
  legal_clearance: t.literal(false),
  coverage: t.type({ origins: t.array(t.string), subdomains_implied: t.literal(false) }),
  products: t.array(Product),
  payment: t.intersection([
    PaymentTermsWire,
    t.type({
      asset_symbol: t.literal('USDC'),
      asset_decimals: t.literal(6),
      eip712: t.type({ name: t.string, version: t.string }),
      request_binding: t.type({
        extension: t.literal('service-request-binding'),
        nonce_prefix: t.string,
        version: t.literal('service-request-v1'),
      }),
      /** The least an authorization's validBefore may leave, from the moment it is sent: every fee bump the
       *  relayer would try plus a margin (docs/wire.md §4); shorter is refused PAYMENT_WINDOW_TOO_SHORT. */
      settlement_window_seconds: t.number,
      /** The longest validBefore accepted from now (the offer's maxTimeoutSeconds). */
      max_timeout_seconds: t.number,
    }),
  ]),
  evidence: t.type({
    format: t.literal('service-evidence-v1'),
    algorithm: t.literal('Ed25519'),
    keys: t.array(t.type({ key_id: t.string, algorithm: t.literal('Ed25519'), public_key: t.string })),
  }),
  limits: t.type({
    resources_per_gate_call: t.type({ min: t.number, max: t.number }),
    resource_url_max_length: t.number,
    freshness_seconds: t.type({ min: t.number, max: t.number, default: t.number }),
    max_total_micro: t.string,
    quote_ttl_seconds: t.number,
  }),
  /** Per client address (IPv6: per /64), whatever the path's spelling; over the limit: 429 RATE_LIMITED with
   *  Retry-After. `mcp_tools` spend the same bucket (their refusal is the tool's RATE_LIMITED error). */
  rate_limits: t.record(
    t.string,
    t.type({
      method: t.literal('POST'),
      path: t.string,
      requests_per_minute: t.number,
      burst: t.number,
      mcp_tools: t.array(t.string),
    }),
  ),
  /**
   * Paid work is not free work (docs/wire.md, "Rate limits"): on the routes named, a request whose
   * PAYMENT-SIGNATURE verifies for exactly that request (signer, amount = the published price, asset,
   * recipient, bound nonce, window; the payer able to pay) spends none of the address's bucket, even as
   * the first request, before any 402; it is bounded only by `concurrent_per_payer` paid requests in
   * progress at once. `max_timeout_seconds` is the offer's `maxTimeoutSeconds`, for a payment made before
   * any offer. Anything else spends the bucket.
   */
  paid_requests: t.type({
    rate_limits_skipped: t.array(t.string),
    concurrent_per_payer: t.number,
    max_timeout_seconds: t.number,
  }),
  mcp: t.type({ endpoint: t.string, paid_delivery: t.literal(false) }),
  /** The AI-use signal standards read beside RSL, and the version of each (docs/wire.md §15). */
  signals: t.type({ standards: t.array(t.type({ standard: SignalStandard, version: t.string })) }),
  generated_at: t.string,
});
export type Capabilities = t.TypeOf<typeof Capabilities>;
