import * as t from 'io-ts';

// The small validated strings of the contract, defined once: events, wire codecs, signed payloads and
// configuration all use these. Each is a runtime check; hex values are typed `0x${string}`, the rest
// stay `string`, so the codec is the one place that says what a valid value is.

export type Hex = `0x${string}`;

// `pattern` stays on the codec so the published JSON Schemas (src/http/schema/) read the very same regex.
export const pattern = <A extends string = string>(name: string, re: RegExp, what: string) =>
  Object.assign(
    new t.Type<A, A, unknown>(
      name,
      (u): u is A => typeof u === 'string' && re.test(u),
      (u, c) => (typeof u === 'string' && re.test(u) ? t.success(u as A) : t.failure(u, c, what)),
      (a) => a,
    ),
    { pattern: re },
  );

export const Sha256Hex = pattern('Sha256Hex', /^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters');
export const Bytes32 = pattern('Bytes32', /^0x[0-9a-f]{64}$/, 'must be a 0x-prefixed lowercase 32-byte hex value');
/** Integer micro-USDC as a decimal string, no sign, no leading zeros (1 USDC = 1 000 000). */
export const Micro = pattern('Micro', /^(0|[1-9][0-9]{0,29})$/, 'must be an integer amount of micro-units as a string');
export const IsoTime = pattern(
  'IsoTime',
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/,
  'must be an ISO 8601 UTC timestamp',
);
export const Address = pattern<`0x${string}`>(
  'Address',
  /^0x[0-9a-fA-F]{40}$/,
  'must be a 0x-prefixed 20-byte address',
);
export const TxHash = pattern<`0x${string}`>('TxHash', /^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hash');
/** An EIP-3009 nonce (bytes32). */
export const Nonce = pattern<`0x${string}`>('Nonce', /^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte nonce');
/** Unix seconds as a decimal string (EIP-3009 validBefore). */
export const UnixSeconds = pattern('UnixSeconds', /^[0-9]{1,20}$/, 'must be unix seconds as a decimal string');
/** A block number as a decimal string (bigint-safe in JSON). */
export const BlockNumber = pattern('BlockNumber', /^[0-9]{1,30}$/, 'must be a block number as a decimal string');
export const NonEmpty = pattern('NonEmpty', /\S/, 'must not be empty');
