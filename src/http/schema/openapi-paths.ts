import { GATE_PATH } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { REFUND_REQUESTS_PATH } from '@rights-preflight/wire/contract/refund.js';
import { REVALIDATE_PATH } from '@rights-preflight/wire/contract/revalidation.js';
import {
  error,
  headerRef,
  headers,
  json,
  paramRef,
  parameters,
  paymentResponses,
  PRIVATE,
  ref,
} from './openapi-common.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// The paths of GET /openapi.json, one entry per endpoint: prose, parameters and responses. Schemas are
// references into components (openapi.ts), generated from the codecs.

export const PATHS: Record<string, Record<string, Record<string, unknown>>> = {
  '/': {
    get: {
      summary: 'Where to start: links to capabilities, this document, the API reference (/docs) and the docs',
      responses: {
        200: {
          description: 'the links (as an HTML page when the client prefers text/html)',
          content: { ...json(ref('Landing')), 'text/html': { schema: { type: 'string' } } },
        },
      },
    },
  },
  '/healthz': {
    get: { summary: 'Liveness', responses: { 200: { description: 'alive', content: json(ref('Health')) } } },
  },
  '/readyz': {
    get: {
      summary: 'Readiness',
      responses: {
        200: { description: 'ready', content: json(ref('ReadinessBody')) },
        503: {
          description: 'not ready: `failing` names every check that failed',
          content: json(ref('ReadinessBody')),
        },
      },
    },
  },
  '/openapi.json': {
    get: {
      summary: 'This document',
      responses: { 200: { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
    },
  },
  '/v1/capabilities': {
    get: {
      summary: 'Coverage, products, live prices, payment terms, evidence keys (free)',
      responses: { 200: { description: 'capabilities', content: json(ref('Capabilities')) } },
    },
  },
  '/v1/rights/inspect': {
    post: {
      summary: 'Free inspection of supplied RSL XML (never fetches; not a report)',
      requestBody: { required: true, content: json(ref('InspectRequest')) },
      responses: {
        200: { description: 'inspection', content: json(ref('InspectResponse')) },
        400: error('malformed body'),
        413: error('body too large'),
        415: error('not application/json'),
        422: error('rule violation'),
        503: {
          ...error('INSPECT_BUSY: every inspection worker is busy and the queue is full; retry after Retry-After'),
          headers: { 'Retry-After': { description: 'seconds to wait', schema: { type: 'integer', minimum: 0 } } },
        },
      },
    },
  },
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
  '/v1/rights/reports/{id}': {
    get: {
      summary:
        'Read or redeem a quoted report: 402 offer without payment, the paid report with a bound PAYMENT-SIGNATURE',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: PurchaseId.pattern.source } },
        paramRef('XServiceClaim'),
        paramRef('PaymentSignature'),
      ],
      responses: {
        200: {
          description:
            'the paid report (re-reads return the same delivery, no new charge); for an ingestion-gate ' +
            'purchase (claim = its X-Service-Request) the stored gate response. Each resource carries ' +
            'signals and signals_summary: the AI-use signals beside RSL, signed in the evidence (docs/wire.md §15)',
          headers: { 'PAYMENT-RESPONSE': headerRef('PAYMENT-RESPONSE') },
          content: json({
            anyOf: [ref('PaidReportResponse'), ref('IngestionGateResponse'), ref('RevalidationResponse')],
          }),
        },
        400: error('PAYMENT_SIGNATURE_MALFORMED'),
        404: error('REPORT_NOT_FOUND: unknown id, missing or wrong claim (one answer)'),
        ...paymentResponses,
        409: error(
          'PAYMENT_CONFLICT, PURCHASE_IN_PROGRESS (retry the same request), PURCHASE_HELD, or ' +
            'REPORT_NOT_DELIVERED (an ingestion gate before delivery: it is paid at the gate)',
        ),
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
        200: {
          description:
            'discovery (empty POST), available:false with charge_micro "0" (not a purchased report), ' +
            'or the paid report',
          headers: {
            'PAYMENT-RESPONSE': { ...headers['PAYMENT-RESPONSE'], description: 'on the paid report only' },
          },
          content: json({ anyOf: [ref('PreflightDiscovery'), ref('UnavailableQuote'), ref('PaidReportResponse')] }),
        },
        400: error(
          'UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON, SERVICE_REQUEST_INVALID, PAYMENT_SIGNATURE_MALFORMED',
        ),
        422: error('VALIDATION_FAILED, RESOURCE_* (URL rule), PRICE_EXCEEDS_BUDGET'),
        428: error('SERVICE_REQUEST_REQUIRED: a prepared request without X-Service-Request; do not sign anything'),
        ...paymentResponses,
      },
    },
  },
  [GATE_PATH]: {
    post: {
      summary: 'Ingestion gate: one to four URLs in one paid report (402 offer first, then the §2.4 response)',
      parameters: [
        paramRef('XServiceRequest'),
        paramRef('XServicePaymentIntent'),
        paramRef('SignInWithX'),
        paramRef('PaymentSignature'),
      ],
      requestBody: { required: true, content: json(ref('IngestionGateRequest')) },
      responses: {
        200: {
          description:
            'the paid gate report, or available:false with charge_micro "0" when no resource has any declaration',
          headers: {
            'PAYMENT-RESPONSE': { ...headers['PAYMENT-RESPONSE'], description: 'on the paid report only' },
          },
          content: json({ anyOf: [ref('IngestionGateResponse'), ref('IngestionGateUnavailable')] }),
        },
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
        ...paymentResponses,
        402: {
          ...paymentResponses[402],
          description:
            `${paymentResponses[402].description} ` +
            "PAYMENT_FROM_NOT_SIGNER: the authorization's from is not the signed-in payer.",
        },
      },
    },
  },
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
  [REFUND_REQUESTS_PATH]: {
    post: {
      summary:
        'Ask for a refund of a charged purchase: an operator-reviewed record, ' +
        'never an automatic transfer (spec §3). ' +
        'One request per purchase; filing the same request again answers 200 with it.',
      parameters: [paramRef('XServiceClaim')],
      requestBody: { required: true, content: json(ref('RefundRequestBody')) },
      responses: {
        201: { description: 'recorded for operator review', content: json(ref('RefundView')) },
        200: { description: 'the same request was already recorded', content: json(ref('RefundView')) },
        400: error('UNKNOWN_FIELD, INVALID_REQUEST, MALFORMED_JSON'),
        404: error(
          'REPORT_NOT_FOUND: unknown purchase, missing or wrong X-Service-Claim (one indistinguishable answer)',
        ),
        409: error('REFUND_NOTHING_CHARGED, REFUND_ALREADY_REQUESTED (a different request exists)'),
        422: error('VALIDATION_FAILED, REFUND_MESSAGE_INVALID (the message must not contain the claim token)'),
      },
    },
  },
  [`${REFUND_REQUESTS_PATH}/{purchase_id}`]: {
    get: {
      summary:
        'Where a refund request stands: requested, approved, rejected or paid ' +
        '(by an operator, with the transaction)',
      parameters: [
        {
          name: 'purchase_id',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: PurchaseId.pattern.source },
        },
        paramRef('XServiceClaim'),
      ],
      responses: {
        200: { description: 'the request', content: json(ref('RefundView')) },
        404: error('REPORT_NOT_FOUND (unknown purchase or claim), REFUND_NOT_FOUND (no request filed)'),
      },
    },
  },
  '/mcp': {
    post: {
      summary:
        'MCP (Streamable HTTP, stateless, JSON responses): tools service_capabilities, service_rights_quote; ' +
        'service_quote is listed disabled and always refuses. No paid delivery. ' +
        'GET and DELETE answer 405 (stateless: no session stream to open or close).',
      requestBody: {
        required: true,
        content: json({
          oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' }, minItems: 1, maxItems: 20 }],
          description:
            'JSON-RPC 2.0 message or batch of at most 20, at most 64 KiB ' +
            '(send Accept: application/json, text/event-stream); docs/wire.md §12',
        }),
      },
      responses: {
        200: {
          description: 'JSON-RPC response; an array for a batch, one answer per request, at most 128 KiB',
          content: json({ oneOf: [{ type: 'object' }, { type: 'array', items: { type: 'object' } }] }),
        },
        202: { description: 'notification(s) accepted' },
        400: { description: 'not plain JSON (-32700), an empty batch or one over 20 messages (-32600)' },
        406: { description: 'Accept header missing application/json and text/event-stream' },
        413: { description: 'message over 64 KiB' },
        429: { description: 'over the MCP rate limit (capabilities rate_limits.mcp): -32029, Retry-After' },
      },
    },
  },
};
