import type * as t from 'io-ts';
import type { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import type { OpenApiFragment } from '@rights-preflight/wire/contract/openapi-common.js';
import type { Drafting, Sku } from '../money-path/product.js';
import type { Admit, KeyBound, SaleDeps, SaleOutcome } from '../money-path/sale.js';
import type { RslEngine } from '../rsl/engine.js';
import type { EventStore } from '../store/port.js';
import type { PublishedKey } from '@rights-preflight/wire/revalidation/checkpoint-check.js';

// How a product shows itself to the world, beside what it sells (../money-path/product.ts): its routes
// and their rate-limit specs, its wire bodies, its paid-only surfaces, its capabilities entry, its OpenAPI
// fragment, the statuses of its own refusals. Written without a transport: src/http serves every
// product's routes the same way, and the composition reads each product from one registry
// (src/service/product-registry.ts), so adding a product edits no route, table or document of the service.

/** The rate-limit buckets a product route may spend (config RATE_LIMIT_*). */
export type RateLimitKey = 'quote' | 'preflight' | 'gate';

/** A request as a product route reads it: its decoded body, its headers, and its paid admission. */
export interface RouteCall<Body> {
  body: Body;
  header(name: string): string | undefined;
  /** Paid or free work (src/money-path/paid-admission.ts), on a route whose rate limit is `paid`. */
  admit?: Admit;
}

/** What a key-bound POST's sale reads of its call besides the body (the headers, the paid admission). */
export const keyBound = (call: RouteCall<unknown>): KeyBound => ({
  serviceRequest: call.header('x-service-request'),
  paymentSignature: call.header('payment-signature'),
  ...(call.admit ? { admit: call.admit } : {}),
});

/** A plain JSON answer (not a purchase): checked against its codec on the way out. */
export interface JsonAnswer {
  kind: 'json';
  body: unknown;
  codec?: t.Any;
  cacheControl: string;
  /** The media type when not application/json. */
  type?: string;
}

/** What a product route answers: a sale's outcome (an offer, a delivery, the free answer) or plain JSON. */
export type RouteAnswer = SaleOutcome<unknown> | JsonAnswer;

export interface ProductRoute<Deps> {
  method: 'get' | 'post';
  path: string;
  /** Its bucket: the name in capabilities `rate_limits`, the configured limit, whether paid work is apart. */
  rateLimit?: { name: string; limit: RateLimitKey; paid?: boolean; mcpTools?: readonly string[] };
  /** The body codec; none: the route reads no body. */
  request?: t.Any;
  /** An empty body (or `{}`) reaches `serve` as undefined instead of being refused. */
  allowEmpty?: boolean;
  serve(deps: Deps, call: RouteCall<unknown>): Promise<RouteAnswer> | RouteAnswer;
}

/** One product's entry in capabilities `products` (its `enabled` is the composition's). */
export type CapabilityEntry = Omit<Capabilities['products'][number], 'enabled'>;

/** A capabilities `tiers` entry: the base price per tier and the price per URL (none: "0"). */
export const capabilityTiers = (
  base: Readonly<Record<'fresh' | 'deep', bigint>>,
  perUrl?: Readonly<Record<'fresh' | 'deep', bigint>>,
) => ({
  fresh: { base_micro: base.fresh.toString(), per_url_micro: (perUrl?.fresh ?? 0n).toString() },
  deep: { base_micro: base.deep.toString(), per_url_micro: (perUrl?.deep ?? 0n).toString() },
});

/** What the composition wires a product's observer from. */
export interface ObserverParts {
  rsl: Pick<RslEngine, 'observe'>;
  store: EventStore;
  /** The evidence keys the service publishes (capabilities). */
  evidenceKeys: readonly PublishedKey[];
}

/**
 * One product as the service lists it. `Own` is what its sale needs beyond the money path's deps (its
 * observer): the composition builds it from the service's parts, and its routes get `SaleDeps<Own>`.
 */
export interface ProductListing<S extends Sku = Sku, Own = unknown> {
  /** What the money path asks of it after the quote (its draft). */
  product: Drafting<S>;
  /** Its observer (and any other deps of its own), from the service's parts. */
  observer(parts: ObserverParts): Own;
  /** Its wire bodies: the paid 200 and the free "nothing available" 200. */
  bodies: { delivered: t.Any; unavailable: t.Any };
  /** Offered and paid only at this POST: its report URL serves the delivery and refuses before it. */
  paidOnlyAt?: string;
  capability: CapabilityEntry;
  routes: readonly ProductRoute<SaleDeps<Own>>[];
  openapi: OpenApiFragment;
  /** The HTTP status of each refusal code of its own (src/http/status-of.ts holds the shared ones). */
  statuses?: Readonly<Record<string, number>>;
}
