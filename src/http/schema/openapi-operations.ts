import { SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';

// What a client generator needs beyond the schemas (./openapi.ts): a stable operationId and a tag for
// every operation, the credentials each one takes as security schemes, and the answers every body or
// every /v1 call may get from the HTTP layer itself (413, 415, 429). Kept in one table (a product's own in its
// OpenAPI fragment) so a new route without an entry fails the OpenAPI test instead of shipping an anonymous
// operation.

import { NONE, claim, pay, type Operation } from '@rights-preflight/wire/contract/openapi-common.js';

export const OPERATIONS: Record<string, Operation> = {
  'get /': { operationId: 'getLanding', tag: 'Discovery', security: NONE },
  'get /healthz': { operationId: 'getHealth', tag: 'Operations', security: NONE },
  'get /readyz': { operationId: 'getReadiness', tag: 'Operations', security: NONE },
  'get /openapi.json': { operationId: 'getOpenApi', tag: 'Discovery', security: NONE },
  'get /v1/capabilities': { operationId: 'getCapabilities', tag: 'Discovery', security: NONE },
  'post /v1/rights/inspect': { operationId: 'inspectRsl', tag: 'Free inspection', security: NONE },
  // Without payment the claim alone gets the 402 offer; with it, the paid report.
  'get /v1/rights/reports/{id}': {
    operationId: 'getReport',
    tag: 'Quoted reports',
    security: [claim, { ...claim, ...pay }],
  },
  'post /v1/rights/refund-requests': { operationId: 'createRefundRequest', tag: 'Refund requests', security: [claim] },
  'get /v1/rights/refund-requests/{purchase_id}': {
    operationId: 'getRefundRequest',
    tag: 'Refund requests',
    security: [claim],
  },
  'post /mcp': { operationId: 'mcpPost', tag: 'MCP', security: NONE },
};

const TAGS = [
  { name: 'Discovery', description: 'What the service covers, sells and charges; this document.' },
  { name: 'Free inspection', description: 'Evaluate RSL XML you supply. Never fetches, never a report.' },
  {
    name: 'Quoted reports',
    description: 'Quote, then redeem the quote with an x402 payment bound to its claim (docs/wire.md §1–§6).',
  },
  { name: 'Preflight', description: 'One URL in one request, payment bound to your X-Service-Request key.' },
  {
    name: 'Ingestion gate',
    description:
      'One to four URLs in one report: sign in as the payer, state the payment intent, then pay (docs/wire.md §8).',
  },
  {
    name: 'Revalidation',
    description:
      'Whether the declarations a report observed still stand: its checkpoints observed again, the changes signed ' +
      '(docs/wire.md §14).',
  },
  { name: 'Refund requests', description: 'Operator-reviewed refund requests, authorized by the purchase claim.' },
  { name: 'MCP', description: 'Model Context Protocol: capabilities and quotes only, never paid delivery.' },
  { name: 'Operations', description: 'Liveness and readiness for orchestrators.' },
];

const SECRET = 'A secret: never log it or place it in model context.';
const header = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
const SECURITY_SCHEMES = {
  ServiceClaim: header(
    'X-Service-Claim',
    'The claim_token of a quote (64 hex), or the X-Service-Request key of a preflight or gate purchase. ' +
      `Reads the report and files refund requests. ${SECRET}`,
  ),
  ServiceRequest: header(
    'X-Service-Request',
    "The buyer's own random key (32–128 of [A-Za-z0-9_-]) binding the payment nonce and making retries idempotent. " +
      SECRET,
  ),
  PaymentSignature: header(
    'PAYMENT-SIGNATURE',
    `base64 of the x402 v2 PaymentPayload: an EIP-3009 authorization whose nonce is the offer's bound nonce. ${SECRET}`,
  ),
  PaymentIntent: header(
    'X-Service-Payment-Intent',
    'base64 of the JSON PaymentIntent {version, payer, resource, input_sha256, network} (docs/wire.md §8).',
  ),
  SignInWithX: header(
    'SIGN-IN-WITH-X',
    'base64 of the JSON SiwxProof: an EIP-4361 message signed by the payer, ' +
      `statement "${SIWX_STATEMENT}" (docs/wire.md §8).`,
  ),
};

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});
const BODY_ERRORS = {
  413: errorRef('BODY_TOO_LARGE: the body exceeds the limit (details.limit_bytes); the connection is closed'),
  415: errorRef('UNSUPPORTED_MEDIA_TYPE: the body must be Content-Type: application/json in UTF-8'),
};
/** Node's parser answers it before any route (src/http/client-error.ts), whatever the operation. */
const HEADERS_TOO_LARGE = errorRef('HEADERS_TOO_LARGE: the request headers are larger than the server accepts');
const RATE_LIMITED = {
  ...errorRef('RATE_LIMITED: too many requests from this client; retry after Retry-After seconds'),
  headers: {
    'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
  },
};

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, unknown>;
  [k: string]: unknown;
};

/** Adds operationIds, tags, security and the HTTP layer's own answers; throws on an operation
 *  missing from OPERATIONS. */
export function withOperations<D extends Doc>(doc: D, products: Readonly<Record<string, Operation>> = {}): D {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const meta = OPERATIONS[`${method} ${path}`] ?? products[`${method} ${path}`];
      if (!meta)
        throw new Error(
          `OpenAPI: no operationId, tag and security for ${method.toUpperCase()} ${path} ` +
            '(src/http/schema/openapi-operations.ts)',
        );
      op.operationId = meta.operationId;
      op.tags = [meta.tag];
      op.security = meta.security;
      const responses = op.responses as Record<string, unknown>;
      if (op.requestBody) Object.assign(responses, { ...BODY_ERRORS, ...responses });
      if (path.startsWith('/v1/') || path === '/mcp') responses[429] ??= RATE_LIMITED;
      responses[431] ??= HEADERS_TOO_LARGE;
    }
  }
  // The sign-in statement is a constant of the profile; the codec accepts any string (a wrong one is a
  // 401 statement_mismatch, not a malformed proof), so the schema states the one value that passes.
  type ObjectSchema = { properties?: Record<string, object>; allOf?: ObjectSchema[] };
  const siwx = (doc.components.schemas as Record<string, ObjectSchema> | undefined)?.SiwxProof;
  for (const part of siwx ? [siwx, ...(siwx.allOf ?? [])] : []) {
    if (part.properties?.statement) part.properties.statement = { ...part.properties.statement, const: SIWX_STATEMENT };
  }
  return { ...doc, tags: TAGS, components: { ...doc.components, securitySchemes: SECURITY_SCHEMES } };
}
