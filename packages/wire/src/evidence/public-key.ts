import * as t from 'io-ts';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { sha256Hex } from './digest.js';

// The evidence key as published in /v1/capabilities and pinned by buyers. Browser-safe: a buyer
// recomputes the key id from the public key instead of trusting the one it was given.

export const ED25519 = 'Ed25519' as const;

const hexOfLength = (name: string, chars: number) =>
  new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && u.length === chars && /^[0-9a-f]*$/.test(u),
    (u, c) =>
      typeof u === 'string' && u.length === chars && /^[0-9a-f]*$/.test(u)
        ? t.success(u)
        : t.failure(u, c, `${chars} lowercase hex characters`),
    t.identity,
  );

/** 16 lowercase hex: the first 16 hex characters of sha256(raw 32-byte public key). */
export const KeyId = hexOfLength('KeyId', 16);
/** Raw Ed25519 public key, 32 bytes as 64 lowercase hex. */
export const PublicKeyHex = hexOfLength('PublicKeyHex', 64);

export const PublicKeyInfo = t.type({ key_id: KeyId, algorithm: t.literal(ED25519), public_key: PublicKeyHex });
export type PublicKeyInfo = t.TypeOf<typeof PublicKeyInfo>;

/** key id = first 16 hex of sha256(public key bytes) — the bytes, not their hex text. */
export function keyIdOf(publicKey: Uint8Array | string): string {
  const bytes = typeof publicKey === 'string' ? hexToBytes(publicKey) : publicKey;
  if (bytes.length !== 32) throw new RangeError('an Ed25519 public key is 32 bytes');
  return sha256Hex(bytes).slice(0, 16);
}

export function publicKeyInfo(publicKey: Uint8Array): PublicKeyInfo {
  return { key_id: keyIdOf(publicKey), algorithm: ED25519, public_key: bytesToHex(publicKey) };
}
