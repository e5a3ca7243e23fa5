import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

// Ethereum's hash and the hex forms the buyer signs with (docs/decisions.md, "The buyer as its own
// package": the buyer signs with @noble/* directly rather than viem).

export type Hex = `0x${string}`;

export const keccak = (bytes: Uint8Array): Uint8Array => keccak_256(bytes);
export const toHex = (bytes: Uint8Array): Hex => `0x${bytesToHex(bytes)}`;
export const fromHex = (hex: string): Uint8Array => hexToBytes(hex.replace(/^0x/i, ''));
export const utf8 = (s: string): Uint8Array => utf8ToBytes(s);
