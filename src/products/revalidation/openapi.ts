import { error, pay, request, type OpenApiFragment } from '@rights-preflight/wire/contract/openapi-common.js';
import {
  REVALIDATE_PATH,
  RevalidateRequest,
  RevalidationResponse,
  RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import { ownPostOpenApi } from '../own-post-openapi.js';

// Revalidation's part of GET /openapi.json: its route, its operation and its bodies.

export const revalidationOpenApi: OpenApiFragment = ownPostOpenApi({
  path: REVALIDATE_PATH,
  summary:
    'Revalidation: one to four checkpoints of earlier reports observed again (conditionally) and compared ' +
    '(402 offer first, then the paid report; docs/wire.md §14)',
  parameters: ['XServiceRequest', 'PaymentSignature'],
  request: 'RevalidateRequest',
  delivered: 'RevalidationResponse',
  unavailable: 'RevalidationUnavailable',
  answers:
    'the paid revalidation report, or available:false with charge_micro "0" when no resource could be ' +
    'looked at (FETCH_FAILED); a withdrawn declaration is a paid report',
  refusals: {
    400: error('UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, SERVICE_REQUEST_INVALID, PAYMENT_SIGNATURE_MALFORMED'),
    422: error(
      'VALIDATION_FAILED, PRICE_EXCEEDS_BUDGET, CHECKPOINTS_TOO_MANY, CHECKPOINT_MALFORMED, ' +
        'CHECKPOINT_KEY_UNKNOWN, CHECKPOINT_ALTERED, RESOURCE_* (no longer covered), CHECKPOINT_DUPLICATE, ' +
        'CHECKPOINTS_MIXED, CHECKPOINT_REPORT_UNKNOWN: nothing fetched, stored or offered',
    ),
    428: error('SERVICE_REQUEST_REQUIRED: without X-Service-Request; do not sign anything'),
  },
  operation: { operationId: 'revalidate', tag: 'Revalidation', security: [request, { ...request, ...pay }] },
  components: { RevalidateRequest, RevalidationResponse, RevalidationUnavailable },
});
