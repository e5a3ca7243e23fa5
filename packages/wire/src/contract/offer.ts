import * as t from 'io-ts';
import { Address, Bytes32, IsoTime, MicroString, Network, PurchaseId } from './common.js';
import { Sha256Hex } from './primitives.js';

// The 402 offer. The x402 v2 PaymentRequired object itself travels base64 in the PAYMENT-REQUIRED header
// (codec: src/payment/); here are the service's two extensions inside it and the JSON body of the 402.

export const REQUEST_BINDING_EXTENSION = 'service-request-binding' as const;
export const OFFER_RECEIPT_EXTENSION = 'service-offer-receipt' as const;
export const NONCE_PREFIX = '0x6163717075627631' as const;

/**
 * `PAYMENT-REQUIRED.extensions['service-request-binding'].info`: everything the buyer needs to check the
 * nonce it must sign except the key (the claim token or X-Service-Request value, which only the buyer and
 * the service know): nonce = NONCE_PREFIX + first 48 hex of sha256(JCS({version, resource, key, input_sha256})).
 */
export const RequestBindingInfo = t.type({
  version: t.literal('service-request-v1'),
  nonce: Bytes32,
  resource: t.string,
  input_sha256: Sha256Hex,
  key_source: t.keyof({ 'x-service-claim': null, 'x-service-request': null }),
});
export type RequestBindingInfo = t.TypeOf<typeof RequestBindingInfo>;

/** JSON body of every 402 (the one error shape; the machine-readable offer is the header). */
export const PaymentRequiredBody = t.type(
  {
    error: t.type({
      code: t.string, // PAYMENT_REQUIRED, or the refusal code of a rejected PAYMENT-SIGNATURE
      message: t.string,
      details: t.type({
        purchase_id: PurchaseId,
        charge_micro: MicroString,
        network: Network,
        asset: Address,
        pay_to: Address,
        nonce: Bytes32,
        expires_at: IsoTime,
      }),
    }),
  },
  'PaymentRequiredBody',
);
export type PaymentRequiredBody = t.TypeOf<typeof PaymentRequiredBody>;

/** JSON-Schema advertised with the binding extension (x402 extension shape `{info, schema}`). */
export const REQUEST_BINDING_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    version: { const: 'service-request-v1' },
    nonce: { type: 'string', pattern: '^0x6163717075627631[0-9a-f]{48}$' },
    resource: { type: 'string', format: 'uri' },
    input_sha256: { type: 'string', pattern: Sha256Hex.pattern.source },
    key_source: { enum: ['x-service-claim', 'x-service-request'] },
  },
  required: ['version', 'nonce', 'resource', 'input_sha256', 'key_source'],
} as const;

export const OFFER_RECEIPT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    receipt: {
      type: 'object',
      properties: {
        algorithm: { const: 'Ed25519' },
        format: { const: 'service-evidence-v1' },
        payload: { type: 'object' },
        signature: { type: 'string', pattern: '^[0-9a-f]{128}$' },
      },
      required: ['algorithm', 'format', 'payload', 'signature'],
    },
  },
  required: ['receipt'],
} as const;
