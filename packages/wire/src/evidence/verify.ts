import { isLeft } from 'fp-ts/lib/Either.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { ed } from './noble-sync.js';
import { canonicalBytes } from './canonical-json.js';
import { SignedEnvelope } from './envelope.js';
import { keyIdOf } from './public-key.js';

// Portable verification for the buyer client, third parties and tests: @noble/ed25519 only, no node:
// imports, so it bundles for browsers. Returns false — never throws — on anything that does not verify.
//
// Strict RFC 8032 (`zip215: false`): rejects non-canonical encodings, the same set node:crypto/OpenSSL
// rejects, so a signature accepted here is one the service could have produced.

/** Checks an Ed25519 signature (hex) over `message` with a public key (hex); false, never a throw, otherwise. */
export type SignatureCheck = (message: Uint8Array, signatureHex: string, publicKeyHex: string) => boolean;

export function verifySignature(message: Uint8Array, signatureHex: string, publicKeyHex: string): boolean {
  try {
    if (!/^[0-9a-f]{128}$/.test(signatureHex) || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return false;
    return ed.verify(hexToBytes(signatureHex), message, hexToBytes(publicKeyHex.toLowerCase()), { zip215: false });
  } catch {
    return false;
  }
}

/**
 * True when `envelope` is a well-formed service-evidence-v1 envelope whose signature over JCS(payload)
 * verifies with `publicKeyHex`, and — when the payload names a `key_id` — that key id is this key's,
 * so a payload cannot claim to be signed by a key other than the one that signed it.
 */
export function verifyEnvelope(
  envelope: unknown,
  publicKeyHex: string,
  check: SignatureCheck = verifySignature,
): boolean {
  const decoded = SignedEnvelope.decode(envelope);
  if (isLeft(decoded)) return false;
  const { payload, signature } = decoded.right;
  let message: Uint8Array;
  try {
    message = canonicalBytes(payload);
    if ('key_id' in payload && payload.key_id !== keyIdOf(publicKeyHex.toLowerCase())) return false;
  } catch {
    return false; // no JSON form (e.g. a BigInt smuggled in) or a malformed public key
  }
  return check(message, signature, publicKeyHex);
}
