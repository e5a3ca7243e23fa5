import {
  error,
  headers,
  json,
  paramRef,
  paymentResponses,
  pay,
  ref,
  request,
  type OpenApiFragment,
} from '@rights-preflight/wire/contract/openapi-common.js';
import {
  REVALIDATE_PATH,
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';

// Revalidation's part of GET /openapi.json: its route, its operation and its bodies.

export const revalidationOpenApi: OpenApiFragment = {
  delivered: 'RevalidationResponse',
  paths: {
    [REVALIDATE_PATH]: {
      post: {
        summary:
          'Revalidation: one to four checkpoints of earlier reports observed again (conditionally) and compared ' +
          '(402 offer first, then the paid report; docs/wire.md §14)',
        parameters: [paramRef('XServiceRequest'), paramRef('PaymentSignature')],
        requestBody: { required: true, content: json(ref('RevalidateRequest')) },
        responses: {
          200: {
            description:
              'the paid revalidation report, or available:false with charge_micro "0" when no resource could be ' +
              'looked at (FETCH_FAILED); a withdrawn declaration is a paid report',
            headers: {
              'PAYMENT-RESPONSE': { ...headers['PAYMENT-RESPONSE'], description: 'on the paid report only' },
            },
            content: json({ anyOf: [ref('RevalidationResponse'), ref('RevalidationUnavailable')] }),
          },
          400: error(
            'UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, SERVICE_REQUEST_INVALID, PAYMENT_SIGNATURE_MALFORMED',
          ),
          422: error(
            'VALIDATION_FAILED, PRICE_EXCEEDS_BUDGET, CHECKPOINTS_TOO_MANY, CHECKPOINT_MALFORMED, ' +
              'CHECKPOINT_KEY_UNKNOWN, CHECKPOINT_ALTERED, RESOURCE_* (no longer covered), CHECKPOINT_DUPLICATE, ' +
              'CHECKPOINTS_MIXED, CHECKPOINT_REPORT_UNKNOWN: nothing fetched, stored or offered',
          ),
          428: error('SERVICE_REQUEST_REQUIRED: without X-Service-Request; do not sign anything'),
          ...paymentResponses,
        },
      },
    },
  },
  operations: {
    'post /v1/rights/revalidate': {
      operationId: 'revalidate',
      tag: 'Revalidation',
      security: [request, { ...request, ...pay }],
    },
  },
  components: { RevalidateRequest, RevalidationResponse, RevalidationUnavailable },
};
