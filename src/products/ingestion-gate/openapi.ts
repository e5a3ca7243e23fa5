import {
  error,
  gate,
  paymentResponses,
  pay,
  type OpenApiFragment,
} from '@rights-preflight/wire/contract/openapi-common.js';
import {
  GATE_PATH,
  IngestionGateRequest,
  IngestionGateResponse,
  IngestionGateUnavailable,
  PaymentIntent,
  SiwxProof,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import { ownPostOpenApi } from '../own-post-openapi.js';

// The ingestion gate's part of GET /openapi.json: its route, its operation and its bodies.

export const ingestionGateOpenApi: OpenApiFragment = ownPostOpenApi({
  path: GATE_PATH,
  summary: 'Ingestion gate: one to four URLs in one paid report (402 offer first, then the §2.4 response)',
  parameters: ['XServiceRequest', 'XServicePaymentIntent', 'SignInWithX', 'PaymentSignature'],
  request: 'IngestionGateRequest',
  delivered: 'IngestionGateResponse',
  unavailable: 'IngestionGateUnavailable',
  answers: 'the paid gate report, or available:false with charge_micro "0" when no resource has any declaration',
  refusals: {
    400: error(
      'UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, SERVICE_REQUEST_INVALID, PAYMENT_INTENT_MALFORMED, ' +
        'SIWX_MALFORMED, PAYMENT_SIGNATURE_MALFORMED',
    ),
    401: error(
      'SIWX_INVALID (details.reason: domain_mismatch, uri_mismatch, chain_mismatch, statement_mismatch, ' +
        'nonce_mismatch, resources_mismatch, issued_at_*, expired, not_yet_valid, signature)',
    ),
    403: error("SIWX_SIGNER_NOT_PAYER: the proof is not signed by the intent's payer"),
    422: error('VALIDATION_FAILED, RESOURCE_* (URL rule), PRICE_EXCEEDS_BUDGET, PAYMENT_INTENT_MISMATCH'),
    428: error('SERVICE_REQUEST_REQUIRED, PAYMENT_INTENT_REQUIRED, SIWX_REQUIRED'),
    402: {
      ...paymentResponses[402],
      description:
        `${paymentResponses[402].description} ` +
        "PAYMENT_FROM_NOT_SIGNER: the authorization's from is not the signed-in payer.",
    },
  },
  operation: { operationId: 'ingestionGate', tag: 'Ingestion gate', security: [gate, { ...gate, ...pay }] },
  components: { IngestionGateRequest, IngestionGateResponse, IngestionGateUnavailable, PaymentIntent, SiwxProof },
});
