import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';

// The EIP-712 digest an EIP-3009 TransferWithAuthorization signature covers: what the buyer signs
// (typed-data.ts), and what the service's own check (src/payment/verify-authorization.ts) and the relayer's
// verify (src/payment/settlement/eip3009-transfer.ts) recover the signer from, so all three compute it the
// same way and the service's two share one recovery (recovered-signers.ts). In the wire leaf because both
// sides need it: one version, written with @noble/hashes only (the buyer does not depend on viem).
//
// Written out word by word (EIP-712 §encodeData: every field here is one 32-byte word) with the domain
// separator kept per token, where viem's generic hashTypedData re-derived the type strings, the domain and
// its hash on every call: about 1 ms of the event loop per paid redemption under load (docs/decisions.md,
// "A paid redemption's CPU"). packages/wire/test/authorization-digest.test.ts holds it equal to hashTypedData,
// refusals included.

type Hex = `0x${string}`;

export interface AuthorizationFields {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

export interface AuthorizationDomain {
  name: string;
  version: string;
  chainId: number;
  asset: string;
}

const utf8 = new TextEncoder();
/** viem's isAddress without the checksum check (hashTypedData's), and isHex in its strict form. */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x[0-9a-fA-F]*$/;
/** Odd-length hex reads with a leading zero nibble, as viem's hexToBytes reads it. */
const fromHex = (hex: string) => hexToBytes(hex.length % 2 ? `0${hex.slice(2)}` : hex.slice(2));
const hash = (bytes: Uint8Array) => keccak_256(bytes);
const DOMAIN_TYPEHASH = hash(
  utf8.encode('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
);
const TRANSFER_TYPEHASH = hash(
  utf8.encode(
    'TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,' +
      'bytes32 nonce)',
  ),
);
const MAX_UINT256 = (1n << 256n) - 1n;

function addressWord(address: string): Uint8Array {
  if (!ADDRESS.test(address)) throw new Error(`Address "${address}" is invalid.`);
  const word = new Uint8Array(32);
  word.set(fromHex(address), 12);
  return word;
}

function uintWord(value: bigint): Uint8Array {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${value} is not a uint256`);
  return hexToBytes(value.toString(16).padStart(64, '0'));
}

function bytes32Word(value: Hex): Uint8Array {
  const bytes = HEX.test(value) ? fromHex(value) : new Uint8Array(0);
  if (bytes.length !== 32) throw new Error(`"${value}" is not 32 bytes`);
  return bytes;
}

const LIMIT = 64;
const separators = new Map<string, Uint8Array>();

/** The domain separator of one token's EIP-712 domain, kept (a service pays with one or two tokens). */
function domainSeparator(d: AuthorizationDomain): Uint8Array {
  const key = `${d.name}\u0000${d.version}\u0000${d.chainId}\u0000${d.asset.toLowerCase()}`;
  const known = separators.get(key);
  if (known) return known;
  const separator = hash(
    concatBytes(
      DOMAIN_TYPEHASH,
      hash(utf8.encode(d.name)),
      hash(utf8.encode(d.version)),
      uintWord(BigInt(d.chainId)),
      addressWord(d.asset),
    ),
  );
  if (separators.size >= LIMIT) separators.delete(separators.keys().next().value!);
  separators.set(key, separator);
  return separator;
}

/** The digest as 32 bytes. */
export function authorizationDigestBytes(a: AuthorizationFields, domain: AuthorizationDomain): Uint8Array {
  const struct = hash(
    concatBytes(
      TRANSFER_TYPEHASH,
      addressWord(a.from),
      addressWord(a.to),
      uintWord(BigInt(a.value)),
      uintWord(BigInt(a.validAfter)),
      uintWord(BigInt(a.validBefore)),
      bytes32Word(a.nonce),
    ),
  );
  return hash(concatBytes(Uint8Array.of(0x19, 0x01), domainSeparator(domain), struct));
}

/** The digest as 0x-hex, as viem's hashTypedData answers it. */
export const authorizationDigest = (a: AuthorizationFields, domain: AuthorizationDomain): Hex =>
  `0x${bytesToHex(authorizationDigestBytes(a, domain))}`;
