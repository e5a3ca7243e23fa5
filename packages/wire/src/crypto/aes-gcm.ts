import * as t from 'io-ts';
import { fromBase64url, toBase64url } from './base64url.js';

// AES-256-GCM sealing with WebCrypto (globalThis.crypto.subtle: Node ≥ 20 and browsers), for secrets
// that must be kept but never readable at rest: the exact payment authorization in the service's
// `AuthorizationCheckpointed` and the buyer client's checkpoint store. Browser-safe: no node: imports.
//
// Sealed form: {alg:'A256GCM', iv, ciphertext}, both base64url; `ciphertext` is WebCrypto's output,
// i.e. the encrypted bytes followed by the 16-byte tag. A fresh random 96-bit IV per seal (NIST SP
// 800-38D §8.2.2): with random IVs one key may seal up to 2^32 values, far beyond a checkpoint key's life.
// `aad` binds the sealed value to its place (e.g. the purchase id): opened anywhere else, it fails.

export const A256GCM = 'A256GCM' as const;

export const SealedBox = t.type({
  alg: t.literal(A256GCM),
  iv: t.refinement(t.string, (s) => /^[A-Za-z0-9_-]{16}$/.test(s), 'Iv96Base64url'),
  ciphertext: t.refinement(t.string, (s) => /^[A-Za-z0-9_-]{22,}$/.test(s), 'CiphertextBase64url'),
});
export type SealedBox = t.TypeOf<typeof SealedBox>;

export class SealOpenFailed extends Error {
  readonly code = 'SEAL_OPEN_FAILED';
}

const EMPTY = new Uint8Array(0);

// WebCrypto wants BufferSource backed by an ArrayBuffer; copy so a view on a SharedArrayBuffer or a
// Node Buffer slice of a pooled allocation is never handed over.
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

async function importKey(key32: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  if (key32.length !== 32) throw new RangeError('an AES-256 key is 32 bytes');
  return globalThis.crypto.subtle.importKey('raw', own(key32), { name: 'AES-GCM' }, false, [usage]);
}

export async function seal(key32: Uint8Array, plaintext: Uint8Array, aad: Uint8Array = EMPTY): Promise<SealedBox> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const key = await importKey(key32, 'encrypt');
  const ct = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: own(aad), tagLength: 128 },
    key,
    own(plaintext),
  );
  return { alg: A256GCM, iv: toBase64url(iv), ciphertext: toBase64url(new Uint8Array(ct)) };
}

/** A sealed value's 96-bit IV and its ciphertext ‖ 16-byte tag, or SealOpenFailed when it is not one. */
export function sealedBoxParts(box: SealedBox): { iv: Uint8Array; ct: Uint8Array } {
  try {
    if (box.alg !== A256GCM) throw new Error('alg');
    const iv = fromBase64url(box.iv);
    const ct = fromBase64url(box.ciphertext);
    if (iv.length !== 12 || ct.length < 16) throw new Error('length');
    return { iv, ct };
  } catch {
    throw new SealOpenFailed('not an A256GCM sealed value');
  }
}

/** The plaintext, or SealOpenFailed for a wrong key, wrong aad, or any altered byte. */
export async function open(key32: Uint8Array, box: SealedBox, aad: Uint8Array = EMPTY): Promise<Uint8Array> {
  const key = await importKey(key32, 'decrypt');
  const { iv, ct } = sealedBoxParts(box);
  try {
    return new Uint8Array(
      await globalThis.crypto.subtle.decrypt(
        { name: 'AES-GCM', iv: own(iv), additionalData: own(aad), tagLength: 128 },
        key,
        own(ct),
      ),
    );
  } catch {
    // GCM gives one answer for every failure on purpose; so do we.
    throw new SealOpenFailed('sealed value does not open with this key and associated data');
  }
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Text convenience for JSON secrets (an x402 PaymentPayload). */
export const sealText = (key32: Uint8Array, plaintext: string, aad?: string): Promise<SealedBox> =>
  seal(key32, utf8.encode(plaintext), aad === undefined ? EMPTY : utf8.encode(aad));
export const openText = async (key32: Uint8Array, box: SealedBox, aad?: string): Promise<string> =>
  fromUtf8.decode(await open(key32, box, aad === undefined ? EMPTY : utf8.encode(aad)));

/** AAD of a checkpointed payment authorization: sealed for one purchase, it opens for no other. */
export const checkpointAad = (purchaseId: string): string => `service-payment-checkpoint-v1:${purchaseId}`;
