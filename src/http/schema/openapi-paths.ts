import { REFUND_REQUESTS_PATH } from '@rights-preflight/wire/contract/refund.js';
import {
  error,
  headerRef,
  json,
  paramRef,
  paymentResponses,
  ref,
} from '@rights-preflight/wire/contract/openapi-common.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// The paths of GET /openapi.json, one entry per endpoint of the service's own (each product's are in its
// folder: src/products/<name>/openapi.ts): prose, parameters and responses. Schemas are
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

/** The report URL's path item: `delivered` names every product's paid body (it serves them all). */
export const reportPathItem = (delivered: readonly string[]): Record<string, Record<string, unknown>> => ({
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
        content: json({ anyOf: delivered.map(ref) }),
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
});
