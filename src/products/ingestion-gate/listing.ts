import {
  GATE_PATH,
  GATE_SKU,
  IngestionGateRequest,
  IngestionGateResponse,
  IngestionGateUnavailable,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import { GATE_BASE_PRICE, GATE_PER_URL_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { capabilityTiers, type ProductListing } from '../listing.js';
import { ingestionGate } from './gate.js';
import { ingestionGateOpenApi } from './openapi.js';
import { ingestionGateProduct, type GateObserver } from './product.js';

// The ingestion gate as the service lists it: POST /v1/rights/ingestion-gate, offered and paid only there
// (the sign-in proof is part of its request); its report URL serves the delivery once it is made.

/** The purposes a gate request may name, as capabilities lists them (revalidation's are the same). */
export const GATE_PURPOSES = [
  'ai-input',
  'ai-train',
  'ai-index',
  'search',
  'rag-ingestion',
  'summarization',
  'training',
  'search-indexing',
] as const;

export const ingestionGateListing: ProductListing<typeof GATE_SKU, GateObserver> = {
  product: ingestionGateProduct,
  observer: ({ rsl }) => ({ observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx) }),
  bodies: { delivered: IngestionGateResponse, unavailable: IngestionGateUnavailable },
  paidOnlyAt: GATE_PATH,
  capability: {
    sku: GATE_SKU,
    endpoint: GATE_PATH,
    tiers: capabilityTiers(GATE_BASE_PRICE, GATE_PER_URL_PRICE),
    purposes: [...GATE_PURPOSES],
  },
  routes: [
    {
      method: 'post',
      path: GATE_PATH,
      rateLimit: { name: 'gate', limit: 'gate', paid: true },
      request: IngestionGateRequest,
      serve: (deps, call) =>
        ingestionGate(deps, {
          body: call.body as IngestionGateRequest,
          serviceRequest: call.header('x-service-request'),
          paymentIntent: call.header('x-service-payment-intent'),
          siwx: call.header('sign-in-with-x'),
          paymentSignature: call.header('payment-signature'),
          ...(call.admit ? { admit: call.admit } : {}),
        }),
    },
  ],
  openapi: ingestionGateOpenApi,
  // Its sign-in and payment intent, refused before anything is fetched or stored.
  statuses: {
    PAYMENT_INTENT_REQUIRED: 428,
    PAYMENT_INTENT_MALFORMED: 400,
    PAYMENT_INTENT_MISMATCH: 422,
    SIWX_REQUIRED: 428,
    SIWX_MALFORMED: 400,
    SIWX_INVALID: 401,
    SIWX_SIGNER_NOT_PAYER: 403,
  },
};
