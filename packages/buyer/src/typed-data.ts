import { checksumAddress } from './address.js';
import { fromHex, keccak, utf8 } from './keccak.js';

// EIP-712 hashing of the one typed message the buyer signs: USDC's EIP-3009 TransferWithAuthorization
// under the token's domain (name, version, chainId, verifyingContract). Written for the field types it
// uses (address, uint256, bytes32, string); the digest is what viem's hashTypedData gives
// (test/buyer/account.test.ts holds the two equal).

export const EIP3009_TYPES = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

export interface TransferAuthorizationTypedData {
  domain: { name: string; version: string; chainId: number; verifyingContract: `0x${string}` };
  types: typeof EIP3009_TYPES;
  primaryType: 'TransferWithAuthorization';
  message: {
    from: `0x${string}`;
    to: `0x${string}`;
    value: bigint;
    validAfter: bigint;
    validBefore: bigint;
    nonce: `0x${string}`;
  };
}

type Field = { readonly name: string; readonly type: 'address' | 'uint256' | 'bytes32' | 'string' };

const DOMAIN_FIELDS: readonly Field[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

function word(type: Field['type'], value: unknown): Uint8Array {
  if (type === 'string') return keccak(utf8(String(value)));
  if (type === 'bytes32') {
    const b = fromHex(String(value));
    if (b.length !== 32) throw new TypeError('a bytes32 value must be 32 bytes');
    return b;
  }
  const n = type === 'address' ? BigInt(checksumAddress(String(value))) : BigInt(value as bigint | number | string);
  if (n < 0n || n >= 1n << 256n) throw new RangeError(`${type} out of range`);
  return fromHex(n.toString(16).padStart(64, '0'));
}

function hashStruct(name: string, fields: readonly Field[], data: Record<string, unknown>): Uint8Array {
  const typeString = `${name}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`;
  const parts = [keccak(utf8(typeString)), ...fields.map((f) => word(f.type, data[f.name]))];
  const out = new Uint8Array(32 * parts.length);
  parts.forEach((p, i) => out.set(p, 32 * i));
  return keccak(out);
}

/** The EIP-712 digest a TransferWithAuthorization signature signs. */
export function typedDataDigest(d: TransferAuthorizationTypedData): Uint8Array {
  const domain = hashStruct('EIP712Domain', DOMAIN_FIELDS, d.domain);
  const message = hashStruct(d.primaryType, d.types.TransferWithAuthorization, d.message);
  const out = new Uint8Array(66);
  out.set([0x19, 0x01]);
  out.set(domain, 2);
  out.set(message, 34);
  return keccak(out);
}
