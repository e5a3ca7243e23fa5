import * as t from 'io-ts';

// Small validated strings used by the purchase events. Each is a runtime check whose static type
// stays `string`, so application code can build event data from plain strings and the codec is
// still the one place that says what a valid value is.

const pattern = (name: string, re: RegExp, what: string) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && re.test(u),
    (u, c) => (typeof u === 'string' && re.test(u) ? t.success(u) : t.failure(u, c, `${name} ${what}`)),
    t.identity,
  );

export const Sha256Hex = pattern('Sha256Hex', /^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters');
/** Integer micro-USDC as a decimal string, no sign, no leading zeros (1 USDC = 1 000 000). */
export const Micro = pattern('Micro', /^(0|[1-9][0-9]{0,29})$/, 'must be an integer amount of micro-units as a string');
export const IsoTime = pattern('IsoTime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/, 'must be an ISO 8601 UTC timestamp');
export const Address = pattern('Address', /^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
export const TxHash = pattern('TxHash', /^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hash');
/** An EIP-3009 nonce (bytes32). */
export const Nonce = pattern('Nonce', /^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte nonce');
/** Unix seconds as a decimal string (EIP-3009 validBefore). */
export const UnixSeconds = pattern('UnixSeconds', /^[0-9]{1,20}$/, 'must be unix seconds as a decimal string');
/** A block number as a decimal string (bigint-safe in JSON). */
export const BlockNumber = pattern('BlockNumber', /^[0-9]{1,30}$/, 'must be a block number as a decimal string');
export const NonEmpty = pattern('NonEmpty', /\S/, 'must not be empty');
