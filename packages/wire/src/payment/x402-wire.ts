import * as t from 'io-ts';
import { Address, Nonce } from '../contract/primitives.js';

// io-ts codecs for the x402 v2 objects the service sends and accepts (docs/reference/x402.md
// §1.2), restricted to what scheme `exact` with an EIP-3009 payload needs. They are the source of
// truth for "is this well-formed"; whether it matches our offer is src/payment/verify-authorization.ts.
// Objects are open (t.type, not exact): x402 clients may add fields, and extensions are free-form.

const pattern = <A extends string>(name: string, re: RegExp, what: string) =>
  new t.Type<A, string, unknown>(
    name,
    (u): u is A => typeof u === 'string' && re.test(u),
    (u, c) => (typeof u === 'string' && re.test(u) ? t.success(u as A) : t.failure(u, c, what)),
    (a) => a,
  );

export const EvmAddress = Address;
export const Bytes32Hex = Nonce;
/** An ECDSA (65 bytes) or smart-wallet (EIP-1271/6492, longer) signature: 0x + an even number of hex digits. */
export const SignatureHex = pattern<`0x${string}`>(
  'SignatureHex',
  /^0x(?:[0-9a-fA-F]{2}){65,4096}$/,
  'must be a 0x-prefixed hex signature of at least 65 bytes',
);
/** uint256 as a canonical decimal string (no sign, no leading zeros, at most 78 digits). */
export const Uint256String = pattern<string>(
  'Uint256String',
  /^(0|[1-9][0-9]{0,77})$/,
  'must be a non-negative integer as a decimal string',
);
/** CAIP-2 chain id, e.g. `eip155:8453`. */
export const Caip2 = pattern<`${string}:${string}`>(
  'Caip2',
  /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/,
  'must be a CAIP-2 network id like eip155:8453',
);
const PositiveSeconds = new t.Type<number, number, unknown>(
  'PositiveSeconds',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u > 0,
  (u, c) =>
    typeof u === 'number' && Number.isInteger(u) && u > 0 && u <= 86_400 * 365
      ? t.success(u)
      : t.failure(u, c, 'must be a positive whole number of seconds'),
  t.identity,
);

export const ResourceInfo = t.intersection([
  t.type({ url: t.string }),
  t.partial({
    description: t.string,
    mimeType: t.string,
    serviceName: t.string,
    tags: t.array(t.string),
    iconUrl: t.string,
  }),
]);

export const PaymentRequirements = t.type({
  scheme: t.string,
  network: Caip2,
  asset: EvmAddress,
  amount: Uint256String,
  payTo: EvmAddress,
  maxTimeoutSeconds: PositiveSeconds,
  extra: t.UnknownRecord,
});
export type PaymentRequirements = t.TypeOf<typeof PaymentRequirements>;

export const PaymentRequired = t.intersection([
  t.type({ x402Version: t.literal(2), resource: ResourceInfo, accepts: t.array(PaymentRequirements) }),
  t.partial({ error: t.string, extensions: t.UnknownRecord }),
]);
export type PaymentRequired = t.TypeOf<typeof PaymentRequired>;

export const Eip3009Authorization = t.type({
  from: EvmAddress,
  to: EvmAddress,
  value: Uint256String,
  validAfter: Uint256String,
  validBefore: Uint256String,
  nonce: Bytes32Hex,
});
export type Eip3009Authorization = t.TypeOf<typeof Eip3009Authorization>;

/** `PaymentPayload.payload` of scheme exact / EIP-3009 (the SDK's ExactEIP3009Payload, signature required). */
export const ExactEip3009Payload = t.type({ signature: SignatureHex, authorization: Eip3009Authorization });
export type ExactEip3009Payload = t.TypeOf<typeof ExactEip3009Payload>;

/**
 * A PaymentPayload as it arrives. `x402Version` is any number here so that a v1 or v3 payment gets
 * its own refusal (wrong version) rather than "malformed".
 */
export const PaymentPayload = t.intersection([
  t.type({ x402Version: t.number, accepted: PaymentRequirements, payload: ExactEip3009Payload }),
  t.partial({ resource: ResourceInfo, extensions: t.UnknownRecord }),
]);
export type PaymentPayload = t.TypeOf<typeof PaymentPayload>;

export const VerifyResponse = t.intersection([
  t.type({ isValid: t.boolean }),
  t.partial({ invalidReason: t.string, invalidMessage: t.string, payer: t.string }),
]);
export type VerifyResponse = t.TypeOf<typeof VerifyResponse>;

export const SettleResponse = t.intersection([
  t.type({ success: t.boolean, transaction: t.string, network: Caip2 }),
  t.partial({
    errorReason: t.string,
    errorMessage: t.string,
    payer: t.string,
    amount: t.string,
    extensions: t.UnknownRecord,
  }),
]);
export type SettleResponse = t.TypeOf<typeof SettleResponse>;
