import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { A256GCM, SealOpenFailed, sealedBoxParts, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { toBase64url } from '@rights-preflight/wire/crypto/base64url.js';

// The service's AES-256-GCM, byte for byte the sealed form of ./aes-gcm.ts (WebCrypto: iv, then the
// encrypted bytes followed by the 16-byte tag), with node:crypto's synchronous cipher. WebCrypto hands
// every encrypt and decrypt to the thread pool and back and imports the key each time: on a paid
// redemption that seals once and opens once, it cost about 3 ms of the event loop (a CPU profile of
// bench:http), where OpenSSL in place takes microseconds. The buyer stays on ./aes-gcm.ts (browser-safe);
// each side opens what the other sealed (test/crypto/seal.test.ts).

const TAG_BYTES = 16;

/** `iv` is for test vectors only (test/vectors/generate.ts): a real seal draws a fresh random one. */
export function sealNode(
  key32: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
  iv: Uint8Array = randomBytes(12),
): SealedBox {
  if (key32.length !== 32) throw new RangeError('an AES-256 key is 32 bytes');
  if (iv.length !== 12) throw new RangeError('a GCM IV is 12 bytes');
  const cipher = createCipheriv('aes-256-gcm', key32, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { alg: A256GCM, iv: toBase64url(iv), ciphertext: toBase64url(ct) };
}

/** The plaintext, or SealOpenFailed for a wrong key, wrong aad, or any altered byte (one answer for all). */
export function openNode(key32: Uint8Array, box: SealedBox, aad: Uint8Array): Uint8Array {
  if (key32.length !== 32) throw new RangeError('an AES-256 key is 32 bytes');
  const { iv, ct } = sealedBoxParts(box);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key32, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(ct.subarray(ct.length - TAG_BYTES));
    return new Uint8Array(Buffer.concat([decipher.update(ct.subarray(0, ct.length - TAG_BYTES)), decipher.final()]));
  } catch {
    throw new SealOpenFailed('sealed value does not open with this key and associated data');
  }
}
