import {
  error,
  json,
  NONE,
  paidAnswer,
  paramRef,
  parameters,
  paymentResponses,
  pay,
  PRIVATE,
  ref,
  request,
  type OpenApiFragment,
} from '@rights-preflight/wire/contract/openapi-common.js';
import { PreflightDiscovery, PreflightRequest } from '@rights-preflight/wire/contract/preflight.js';
import { QuoteRequest, QuoteResponse, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import { PaidReportResponse } from '@rights-preflight/wire/contract/report.js';

// The single report's part of GET /openapi.json: its two routes, their operations and their bodies.

export const singleReportOpenApi: OpenApiFragment = {
  delivered: 'PaidReportResponse',
  paths: {
    '/v1/rights/quote': {
      post: {
        summary: 'Prepare a quote for one resource (may fetch metadata and consume quota)',
        parameters: [paramRef('IdempotencyKey')],
        requestBody: { required: true, content: json(ref('QuoteRequest')) },
        responses: {
          200: {
            description:
              `available quote with a claim_token (${PRIVATE}), or available:false with charge_micro "0"; ` +
              'both with the free signals_preview of the AI-use signals beside RSL (docs/wire.md §15)',
            content: json(ref('QuoteResponse')),
          },
          400: error('UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, INVALID_IDEMPOTENCY_KEY'),
          422: error('VALIDATION_FAILED, RESOURCE_* (URL rule), PRICE_EXCEEDS_BUDGET'),
        },
      },
    },
    '/v1/rights/preflight': {
      get: {
        summary: 'JSON Schema of the preflight request',
        responses: {
          200: {
            description: 'JSON Schema 2020-12',
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
        },
      },
      post: {
        summary:
          'Preflight: empty body = discovery only; ' +
          'a prepared request with X-Service-Request = 200 unavailable or 402 offer; ' +
          'the same request with PAYMENT-SIGNATURE = the paid report',
        parameters: [
          {
            ...parameters.XServiceRequest,
            required: false,
            description:
              `${parameters.XServiceRequest.description} ` +
              'Required on a prepared request (428 SERVICE_REQUEST_REQUIRED otherwise); not needed for discovery.',
          },
          paramRef('PaymentSignature'),
        ],
        requestBody: {
          required: false,
          content: json({ anyOf: [ref('PreflightRequest'), { type: 'object', maxProperties: 0 }] }),
        },
        responses: {
          200: paidAnswer(
            'discovery (empty POST), available:false with charge_micro "0" (not a purchased report), ' +
              'or the paid report',
            ['PreflightDiscovery', 'UnavailableQuote', 'PaidReportResponse'],
          ),
          400: error(
            'UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, SERVICE_REQUEST_INVALID, PAYMENT_SIGNATURE_MALFORMED',
          ),
          422: error('VALIDATION_FAILED, RESOURCE_* (URL rule), PRICE_EXCEEDS_BUDGET'),
          428: error('SERVICE_REQUEST_REQUIRED: a prepared request without X-Service-Request; do not sign anything'),
          ...paymentResponses,
        },
      },
    },
  },
  operations: {
    'post /v1/rights/quote': { operationId: 'createQuote', tag: 'Quoted reports', security: NONE },
    'get /v1/rights/preflight': { operationId: 'getPreflightSchema', tag: 'Preflight', security: NONE },
    'post /v1/rights/preflight': {
      operationId: 'preflight',
      tag: 'Preflight',
      security: [{}, request, { ...request, ...pay }],
    },
  },
  components: {
    QuoteRequest,
    QuoteResponse,
    UnavailableQuote,
    PaidReportResponse,
    PreflightRequest,
    PreflightDiscovery,
  },
};
