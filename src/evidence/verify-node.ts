import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { SignatureCheck } from '@rights-preflight/wire/evidence/verify.js';

// Ed25519 verification with node:crypto (OpenSSL, native): the service's check of its own envelopes on the
// request path (a revalidation's checkpoints), where the portable @noble check costs milliseconds of event
// loop each. OpenSSL rejects the same non-canonical encodings as the portable check's strict RFC 8032 mode
// (packages/wire/src/evidence/verify.ts); test/evidence/verify-node.test.ts holds the two equal. Node only.

// An SPKI DER Ed25519 public key is this fixed 12-byte header followed by the 32-byte key (RFC 8410 §4).
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const MAX_KEPT = 16;
const kept = new Map<string, KeyObject>();

function keyObject(publicKeyHex: string): KeyObject {
  let key = kept.get(publicKeyHex);
  if (!key) {
    const der = Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyHex, 'hex')]);
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    if (kept.size < MAX_KEPT) kept.set(publicKeyHex, key);
  }
  return key;
}

export const nodeSignatureCheck: SignatureCheck = (message, signatureHex, publicKeyHex) => {
  try {
    if (!/^[0-9a-f]{128}$/.test(signatureHex) || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return false;
    return verify(null, message, keyObject(publicKeyHex.toLowerCase()), Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
};
