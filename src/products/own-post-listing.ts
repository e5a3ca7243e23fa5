import type * as t from 'io-ts';
import type { OpenApiFragment } from '@rights-preflight/wire/contract/openapi-common.js';
import type { Drafting, Sku } from '../money-path/product.js';
import type { KeyBound, SaleDeps } from '../money-path/sale.js';
import {
  keyBound,
  type CapabilityEntry,
  type ObserverParts,
  type ProductListing,
  type RateLimitKey,
  type RouteAnswer,
  type RouteCall,
} from './listing.js';

// A product offered and paid only at its own POST (the ingestion gate, revalidation): its one route is
// key-bound (X-Service-Request) with its paid work apart (rate limit `paid`), capabilities names that POST
// as its endpoint, and its report URL serves the delivery once made and refuses before it (`paidOnlyAt`).
// What such a product says of itself is only what differs: its path, body, sale, prices and purposes.

export interface OwnPostProduct<S extends Sku, Own, Body> {
  product: Drafting<S>;
  observer(parts: ObserverParts): Own;
  /** The POST it is offered and paid at. */
  path: string;
  /** Its request body codec. */
  request: t.Type<Body, unknown, unknown>;
  bodies: ProductListing['bodies'];
  /** Its bucket: the name in capabilities `rate_limits` and the configured limit it spends. */
  rateLimit: { name: string; limit: RateLimitKey };
  tiers: CapabilityEntry['tiers'];
  purposes: readonly string[];
  /** Its sale of one call: the decoded body, what makes the call key-bound, the call for headers of its own. */
  sell(deps: SaleDeps<Own>, body: Body, bound: KeyBound, call: RouteCall<unknown>): Promise<RouteAnswer>;
  openapi: OpenApiFragment;
  statuses: Readonly<Record<string, number>>;
}

export function ownPostListing<S extends Sku, Own, Body>(p: OwnPostProduct<S, Own, Body>): ProductListing<S, Own> {
  return {
    product: p.product,
    observer: p.observer,
    bodies: p.bodies,
    paidOnlyAt: p.path,
    capability: { sku: p.product.sku, endpoint: p.path, tiers: p.tiers, purposes: [...p.purposes] },
    routes: [
      {
        method: 'post',
        path: p.path,
        rateLimit: { ...p.rateLimit, paid: true },
        request: p.request,
        serve: (deps, call) => p.sell(deps, call.body as Body, keyBound(call), call),
      },
    ],
    openapi: p.openapi,
    statuses: p.statuses,
  };
}
