import {
  GATE_PATH,
  IngestionGateRequest,
  IngestionGateResponse,
  IngestionGateUnavailable,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import { GATE_BASE_PRICE, GATE_PER_URL_PRICE } from '@rights-preflight/wire/pricing/prices.js';
import { GATE_PURPOSES } from '@rights-preflight/wire/rsl/purposes.js';
import { capabilityTiers } from '../listing.js';
import { ownPostListing } from '../own-post-listing.js';
import { ingestionGate } from './gate.js';
import { ingestionGateOpenApi } from './openapi.js';
import { ingestionGateProduct, type GateObserver } from './product.js';

// The ingestion gate as the service lists it: POST /v1/rights/ingestion-gate, offered and paid only there
// (the sign-in proof is part of its request); its report URL serves the delivery once it is made.

export const ingestionGateListing = ownPostListing({
  product: ingestionGateProduct,
  observer: ({ rsl }): GateObserver => ({
    observeGate: (resource, purposes, ctx) => rsl.observe(resource, purposes, ctx),
  }),
  path: GATE_PATH,
  request: IngestionGateRequest,
  bodies: { delivered: IngestionGateResponse, unavailable: IngestionGateUnavailable },
  rateLimit: { name: 'gate', limit: 'gate' },
  tiers: capabilityTiers(GATE_BASE_PRICE, GATE_PER_URL_PRICE),
  purposes: GATE_PURPOSES,
  sell: (deps, body, bound, call) =>
    ingestionGate(deps, body, {
      ...bound,
      paymentIntent: call.header('x-service-payment-intent'),
      siwx: call.header('sign-in-with-x'),
    }),
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
});
