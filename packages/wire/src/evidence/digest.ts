import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from './canonical-json.js';

// Digests shared by the service, the buyer client and third-party verifiers. Browser-safe on purpose
// (no node: imports, @noble/hashes only) so the buyer bundle computes exactly what the service signs.

/** sha256 as 64 lowercase hex characters; a string is hashed as its UTF-8 bytes. */
export const sha256Hex = (input: Uint8Array | string): string =>
  bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));

/** Digest of a JSON value: sha256hex(RFC 8785 canonical JSON). Every `*_sha256` over a value uses this. */
export const digestOf = (value: unknown): string => sha256Hex(canonicalJson(value));
