import { keccak, utf8 } from './keccak.js';

// EIP-55: an address in its checksummed spelling (what viem's getAddress returns). The signed
// authorization and the sign-in message name the payer and the recipient this way.

export function checksumAddress(address: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new TypeError(`${address} is not a 20-byte hex address`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak(utf8(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return out as `0x${string}`;
}
