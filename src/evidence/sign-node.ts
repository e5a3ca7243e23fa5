import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import type { ByteSigner } from '@rights-preflight/wire/evidence/envelope.js';

// Ed25519 signing with node:crypto (OpenSSL, native, constant-time): the service's signer, chosen by
// `npm run bench:sign` (docs/decisions.md, Evidence). Node only.

// A PKCS#8 DER Ed25519 private key is this fixed 16-byte header followed by the 32-byte seed
// (RFC 8410 §7): the way to make a KeyObject from a raw seed without a JWK round trip.
const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export function nodeByteSigner(seed: Uint8Array): ByteSigner {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  const der = new Uint8Array(48);
  der.set(PKCS8_ED25519_PREFIX, 0);
  der.set(seed, 16);
  const privateKey = createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
  der.fill(0);
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32)); // SPKI = 12-byte header + 32-byte key
  return { publicKey, signBytes: (message) => new Uint8Array(sign(null, message, privateKey)) };
}
