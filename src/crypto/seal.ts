import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { A256GCM, type SealedBox } from './aes-gcm.js';
import { fromBase64url, toBase64url } from './base64url.js';

// Synchronous compact sealing, "v1.<iv>.<tag>.<ciphertext>" (base64url), AES-256-GCM with node:crypto.
// Kept because the money path (src/service.ts → deps.seal/unseal) calls it synchronously today; new code
// uses the WebCrypto `seal`/`open` of ./aes-gcm.ts (browser-safe, object form). Both are the same
// cipher, so a compact value converts losslessly (`sealedBoxOfCompact`) and opens with aes-gcm.ts.
export const LEGACY_CHECKPOINT_AAD = 'payment-checkpoint-v1';

export function seal(key: Uint8Array, plaintext: string, aad = LEGACY_CHECKPOINT_AAD): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function open(key: Uint8Array, sealed: string, aad = LEGACY_CHECKPOINT_AAD): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}

/** The compact form as a SealedBox: WebCrypto's ciphertext is the encrypted bytes followed by the tag. */
export function sealedBoxOfCompact(sealed: string): SealedBox {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const body = fromBase64url(ct);
  const t = fromBase64url(tag);
  const joined = new Uint8Array(body.length + t.length);
  joined.set(body, 0);
  joined.set(t, body.length);
  return { alg: A256GCM, iv, ciphertext: toBase64url(joined) };
}
