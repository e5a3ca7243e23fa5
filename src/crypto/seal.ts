import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// AES-256-GCM sealing of payment authorizations at rest: "v1.<iv>.<tag>.<ciphertext>" (base64url),
// with an associated-data label so a sealed value cannot be moved to another purpose.
export function seal(key: Uint8Array, plaintext: string, aad = 'payment-checkpoint-v1'): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function open(key: Uint8Array, sealed: string, aad = 'payment-checkpoint-v1'): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}
