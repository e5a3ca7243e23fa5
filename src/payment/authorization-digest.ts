import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { bytesToHex, hexToBytes, isAddress, isHex, type Hex } from 'viem';

// The EIP-712 digest an EIP-3009 TransferWithAuthorization signature covers: what the service's own check
// (verify-authorization.ts) and the relayer's verify (settlement/eip3009-transfer.ts) recover the signer from,
// so both compute it the same way and share one recovery (recovered-signers.ts).
//
// Written out word by word (EIP-712 §encodeData: every field here is one 32-byte word) with the domain
// separator kept per token, where viem's generic hashTypedData re-derived the type strings, the domain and
// its hash on every call: about 1 ms of the event loop per paid redemption under load (docs/decisions.md,
// "A paid redemption's CPU"). test/payment/authorization-digest.test.ts holds it equal to hashTypedData,
// refusals included.

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
  if (!isAddress(address, { strict: false })) throw new Error(`Address "${address}" is invalid.`);
  const word = new Uint8Array(32);
  word.set(hexToBytes(address as Hex), 12);
  return word;
}

function uintWord(value: bigint): Uint8Array {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${value} is not a uint256`);
  return hexToBytes(`0x${value.toString(16).padStart(64, '0')}`);
}

function bytes32Word(value: Hex): Uint8Array {
  const bytes = isHex(value, { strict: true }) ? hexToBytes(value) : new Uint8Array(0);
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

export function authorizationDigest(a: AuthorizationFields, domain: AuthorizationDomain): Hex {
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
  return bytesToHex(hash(concatBytes(Uint8Array.of(0x19, 0x01), domainSeparator(domain), struct)));
}
