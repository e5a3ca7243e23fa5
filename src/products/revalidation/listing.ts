import {
  REVALIDATE_PATH,
  REVALIDATE_SKU,
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import { REVALIDATE_PER_URL_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { capabilityTiers, type ProductListing } from '../listing.js';
import { revalidationOpenApi } from './openapi.js';
import { revalidationProduct, type EvidenceKeys, type RevalidationObserver } from './product.js';
import { revalidate } from './revalidate.js';

// Revalidation as the service lists it: POST /v1/rights/revalidate (docs/wire.md §14), offered and paid
// only there (its checkpoints are part of its request); its report URL serves the delivery once made.

/** The purposes a checkpoint can carry: the gate's. */
const CHECKPOINT_PURPOSES = [
  'ai-input',
  'ai-train',
  'ai-index',
  'search',
  'rag-ingestion',
  'summarization',
  'training',
  'search-indexing',
] as const;

type RevalidationOwn = RevalidationObserver & { evidenceKeys: EvidenceKeys };

export const revalidationListing: ProductListing<typeof REVALIDATE_SKU, RevalidationOwn> = {
  product: revalidationProduct,
  observer: ({ rsl, store, evidenceKeys }) => ({
    observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx),
    store,
    evidenceKeys,
  }),
  bodies: { delivered: RevalidationResponse, unavailable: RevalidationUnavailable },
  paidOnlyAt: REVALIDATE_PATH,
  capability: {
    sku: REVALIDATE_SKU,
    endpoint: REVALIDATE_PATH,
    // Per checkpoint (one URL each), no base.
    tiers: capabilityTiers({ fresh: 0n, deep: 0n }, REVALIDATE_PER_URL_PRICE),
    purposes: [...CHECKPOINT_PURPOSES],
  },
  routes: [
    {
      method: 'post',
      path: REVALIDATE_PATH,
      rateLimit: { name: 'revalidate', limit: 'gate', paid: true },
      request: RevalidateRequest,
      serve: (deps, call) =>
        revalidate(deps, {
          body: call.body as RevalidateRequest,
          serviceRequest: call.header('x-service-request'),
          paymentSignature: call.header('payment-signature'),
          ...(call.admit ? { admit: call.admit } : {}),
        }),
    },
  ],
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
};
