import type Koa from 'koa';
import type Router from '@koa/router';
import { productRouter } from '../http/product-routes.js';
import type { RedemptionBodies } from '../http/present-redemption.js';
import type { RateLimit, RateLimitedRoute } from '../http/rate-limit.js';
import type { Admit } from '../money-path/paid-admission.js';
import type { Products } from '../money-path/product.js';
import type { SaleDeps } from '../money-path/sale.js';
import { ingestionGateListing } from '../products/ingestion-gate/listing.js';
import type { CapabilityEntry, ObserverParts, ProductListing, RateLimitKey } from '../products/listing.js';
import { revalidationListing } from '../products/revalidation/listing.js';
import { singleReportListing } from '../products/single-report/listing.js';
import type { Sku } from '../money-path/product.js';

// The products the service sells, one line each (docs/decisions.md, "One sale flow"): the composition
// reads everything it wires of a product from here (the drafting registry the money path delivers with,
// each product's observer, its routes and their rate limits, its bodies at the report URL, whether it is
// paid only at its own POST, its capabilities entry, its OpenAPI fragment). A new product is its folder
// under src/products/, its member of the `Quoted` union (streams/purchase/quoted-product.ts), its wire
// contract, and one line below.

// biome-ignore lint/suspicious/noExplicitAny: each listing carries its own SKU and deps.
export type AnyListing = ProductListing<any, any>;

export const PRODUCT_REGISTRY = [singleReportListing, ingestionGateListing, revalidationListing] as const;

type OwnOf<L> = L extends { observer(parts: ObserverParts): infer Own } ? Own : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** What some listings' products need beyond the money path's deps (their observers), all together. */
export type OwnOfAll<L extends readonly AnyListing[]> = Intersection<OwnOf<L[number]>>;
/** What the registry's products need beyond the money path's deps, all together. */
export type RegistryOwn = OwnOfAll<typeof PRODUCT_REGISTRY>;

/** The deps of every listed product's sale: the money path's and each product's own (its observer). */
export type ProductsDeps = SaleDeps<unknown>;

/** What one deployment (or one test world) sells: the listings, and everything the composition reads of them. */
export interface ProductCatalog<Own = RegistryOwn> {
  listings: readonly AnyListing[];
  /** The drafting registry by SKU, which the money path delivers with. */
  products: Products;
  /** Every product's own deps (its observer), merged: what its routes get beside the money path's deps. */
  observers(parts: ObserverParts): Own;
  /** Every product route's rate limit, as the middleware applies them. */
  rateLimits(limits: Readonly<Record<RateLimitKey, RateLimit>>): RateLimitedRoute[];
  /** The routers of every product. */
  routers(deps: ProductsDeps, admission?: (ctx: Koa.Context) => Admit): Router[];
  /** The bodies of a SKU's product (the report URL presents every product's delivery). */
  bodiesOf(sku: string): RedemptionBodies;
  /** Where a SKU is offered and paid when only at its own POST. */
  paidOnlyAt(sku: string): string | undefined;
  /** Capabilities `products`: every product, enabled (this instance serves its routes). */
  capabilities(): (CapabilityEntry & { enabled: boolean })[];
  openapi(): AnyListing['openapi'][];
  /** The statuses of the products' own refusal codes. */
  statuses(): Record<string, number>;
}

export function productCatalog(): ProductCatalog<RegistryOwn>;
export function productCatalog<L extends readonly AnyListing[]>(listings: L): ProductCatalog<OwnOfAll<L>>;
export function productCatalog(listings: readonly AnyListing[] = PRODUCT_REGISTRY): ProductCatalog<unknown> {
  const bySku = new Map<string, AnyListing>(listings.map((l) => [l.product.sku, l]));
  const listingOf = (sku: string): AnyListing => {
    const listing = bySku.get(sku);
    if (!listing) throw new Error(`no product for SKU ${sku}`);
    return listing;
  };
  return {
    listings,
    products: Object.fromEntries(listings.map((l) => [l.product.sku as Sku, l.product])) as Products,
    observers: (parts) => Object.assign({}, ...listings.map((l) => l.observer(parts))),
    rateLimits: (limits) =>
      listings.flatMap((l) =>
        l.routes.flatMap((r) =>
          r.rateLimit && r.method === 'post'
            ? [
                {
                  method: 'POST' as const,
                  path: r.path,
                  name: r.rateLimit.name,
                  limit: limits[r.rateLimit.limit],
                  ...(r.rateLimit.mcpTools ? { mcpTools: r.rateLimit.mcpTools } : {}),
                  ...(r.rateLimit.paid ? { paid: true } : {}),
                },
              ]
            : [],
        ),
      ),
    routers: (deps, admission) => listings.map((l) => productRouter(l, deps, admission)),
    bodiesOf: (sku) => listingOf(sku).bodies,
    paidOnlyAt: (sku) => bySku.get(sku)?.paidOnlyAt,
    capabilities: () => listings.map((l) => ({ ...l.capability, enabled: true })),
    openapi: () => listings.map((l) => l.openapi),
    statuses: () => Object.assign({}, ...listings.map((l) => l.statuses ?? {})),
  };
}
