import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { canonicalJson } from './canonical-json.js';

// Digests shared by the service, the buyer client and third-party verifiers. Browser-safe on purpose
// (no node: imports, @noble/hashes only) so the buyer bundle computes exactly what the service signs.
// Where the runtime hands out its own crypto without an import (Node's `process.getBuiltinModule`), the
// same digest is taken natively: a quote takes four, and @noble's were ~4 µs each of the event loop
// against ~1 µs (docs/decisions.md "A quote's own CPU"). SHA-256 is one function: the bytes are the same,
// and a string is hashed as its UTF-8 either way (packages/wire/test/digest.test.ts holds the two equal).

interface NativeSha256 {
  createHash(algorithm: 'sha256'): {
    update(data: Uint8Array | string, encoding?: 'utf8'): { digest(encoding: 'hex'): string };
  };
}

const native = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'crypto',
) as NativeSha256 | undefined;

/** sha256 with @noble/hashes, whatever the runtime: what the browser computes, for tests that compare. */
export const portableSha256Hex = (input: Uint8Array | string): string =>
  bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));

/** sha256 as 64 lowercase hex characters; a string is hashed as its UTF-8 bytes. */
export const sha256Hex: (input: Uint8Array | string) => string = native
  ? (input) => native.createHash('sha256').update(input, 'utf8').digest('hex')
  : portableSha256Hex;

/** Digest of a JSON value: sha256hex(RFC 8785 canonical JSON). Every `*_sha256` over a value uses this. */
export const digestOf = (value: unknown): string => sha256Hex(canonicalJson(value));
