import {
  REVALIDATE_PATH,
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import { REVALIDATE_PER_URL_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { GATE_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import { capabilityTiers } from '../listing.js';
import { ownPostListing } from '../own-post-listing.js';
import { revalidationOpenApi } from './openapi.js';
import { revalidationProduct, type EvidenceKeys, type RevalidationObserver } from './product.js';
import { revalidate } from './revalidate.js';

// Revalidation as the service lists it: POST /v1/rights/revalidate (docs/wire.md §14), offered and paid
// only there (its checkpoints are part of its request); its report URL serves the delivery once made.

export const revalidationListing = ownPostListing({
  product: revalidationProduct,
  observer: ({ rsl, store, evidenceKeys }): RevalidationObserver & { evidenceKeys: EvidenceKeys } => ({
    observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx),
    store,
    evidenceKeys,
  }),
  path: REVALIDATE_PATH,
  request: RevalidateRequest,
  bodies: { delivered: RevalidationResponse, unavailable: RevalidationUnavailable },
  rateLimit: { name: 'revalidate', limit: 'gate' },
  // Per checkpoint (one URL each), no base.
  tiers: capabilityTiers({ fresh: 0n, deep: 0n }, REVALIDATE_PER_URL_PRICE),
  // A checkpoint carries one of the gate's purposes.
  purposes: GATE_PURPOSES,
  sell: (deps, body, bound) => revalidate(deps, body, bound),
  openapi: revalidationOpenApi,
  // Its checkpoints (docs/wire.md §14): refused before anything is fetched, stored or offered.
  statuses: {
    CHECKPOINTS_TOO_MANY: 422,
    CHECKPOINT_MALFORMED: 422,
    CHECKPOINT_KEY_UNKNOWN: 422,
    CHECKPOINT_ALTERED: 422,
    CHECKPOINT_DUPLICATE: 422,
    CHECKPOINTS_MIXED: 422,
    CHECKPOINT_REPORT_UNKNOWN: 422,
  },
});
