import type * as t from 'io-ts';
import type { JsonSchema } from './constrained.js';
import { GATE_SIWX_PROFILE } from './ingestion-gate.js';

// The pieces the OpenAPI paths share: references into components, the header and parameter
// definitions, the error answer and the money path's payment responses.

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
export const error = (description: string) => ({ description, content: json(ref('ErrorBody')) });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const paramRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** A header carrying base64 JSON of a component schema. */
export const base64Json = (name: string) => ({
  schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: ref(name) },
});

export const PRIVATE = 'Private secret: never log it or place it in model context.';

export const parameters = {
  XServiceClaim: {
    name: 'X-Service-Claim',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description: `The quote's claim_token (or, for a key-bound purchase, its X-Service-Request value). ${PRIVATE}`,
  },
  XServiceRequest: {
    name: 'X-Service-Request',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32,128}$' },
    description:
      "The buyer's private retry and binding key (spec §5.4). Same key + same input = same purchase. " +
      `${PRIVATE} Without it, do not sign: the nonce is bound to it.`,
  },
  PaymentSignature: {
    name: 'PAYMENT-SIGNATURE',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description:
      'base64 x402 v2 PaymentPayload (scheme exact, EIP-3009) whose nonce is the bound nonce of the offer. ' + PRIVATE,
  },
  XServicePaymentIntent: {
    name: 'X-Service-Payment-Intent',
    in: 'header',
    required: true,
    description:
      'base64 JSON of PaymentIntent: the unsigned pre-binding ' +
      `{version, payer, resource (canonical gate URL), input_sha256, network}. ${PRIVATE}`,
    // The header's decoded content, stated in JSON Schema 2020-12 (contentEncoding/contentSchema).
    ...base64Json('PaymentIntent'),
  },
  SignInWithX: {
    name: 'SIGN-IN-WITH-X',
    in: 'header',
    required: true,
    description:
      `base64 JSON of SiwxProof (x402 sign-in-with-x payload, profile ${GATE_SIWX_PROFILE}): ` +
      'EIP-4361 message signed by the payer; nonce = the 48 hex of the bound nonce, uri = gate URL, ' +
      `resources = [gate URL, urn:service-request:input-sha256:<input_sha256>]. ${PRIVATE}`,
    ...base64Json('SiwxProof'),
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,128}$' },
    description: `Optional retry key of the quote: same key + same input returns the same quote and claim. ${PRIVATE}`,
  },
};

export const headers = {
  'PAYMENT-REQUIRED': {
    description:
      'base64 x402 v2 PaymentRequired: accepts[0] (exact, network, asset, payTo, amount), ' +
      'extensions service-request-binding (bound nonce) and service-offer-receipt (Ed25519-signed offer).',
    schema: { type: 'string' },
  },
  'PAYMENT-RESPONSE': {
    description: 'base64 x402 v2 SettleResponse {success, transaction, network, payer}.',
    schema: { type: 'string' },
  },
};

export const paymentResponses = {
  402: {
    description: 'Payment required (the offer), or a refused payment with its own code; nothing was charged.',
    headers: { 'PAYMENT-REQUIRED': headerRef('PAYMENT-REQUIRED') },
    content: json(ref('PaymentRequiredBody')),
  },
  409: error('PAYMENT_CONFLICT, PURCHASE_IN_PROGRESS (retry the same request), PURCHASE_HELD, or a key conflict'),
  410: error('OFFER_EXPIRED: nothing was paid; start again'),
  503: error('RELAYER_UNDERFUNDED: the service cannot pay settlement gas now; no offer, nothing charged (Retry-After)'),
};

/** The 200 of a paid POST: its paid report (PAYMENT-RESPONSE beside it) or one of its free answers. */
export const paidAnswer = (description: string, bodies: readonly string[]) => ({
  description,
  headers: { 'PAYMENT-RESPONSE': { ...headers['PAYMENT-RESPONSE'], description: 'on the paid report only' } },
  content: json({ anyOf: bodies.map((b) => ref(b)) }),
});

/** What a client generator needs of an operation beyond its schemas: a stable id, a tag, the credentials. */
export type Requirement = Record<string, string[]>;
export interface Operation {
  operationId: string;
  tag: string;
  security: Requirement[];
}

/** The credentials an operation takes, as security requirements. */
export const NONE: Requirement[] = [{}];
export const claim = { ServiceClaim: [] };
export const request = { ServiceRequest: [] };
export const pay = { PaymentSignature: [] };
export const gate = { ServiceRequest: [], PaymentIntent: [], SignInWithX: [] };

/** A product's part of the OpenAPI document: its paths, its operations, its body schemas (from codecs), and
 *  the component name of its paid body (one of the report URL's answers). */
export interface OpenApiFragment {
  delivered: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  operations: Record<string, Operation>;
  components: Record<string, t.Mixed>;
}
