import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { LEGACY_CHECKPOINT_AAD } from '../../src/crypto/seal.js';

// Test fixtures only: writes (and reads back) the legacy compact checkpoint form
// "v1.<iv>.<tag>.<ciphertext>" exactly as the first money-path version did, so tests can prove old
// streams still decode and open. The service no longer writes this form.

export function sealCompact(key: Uint8Array, plaintext: string, aad = LEGACY_CHECKPOINT_AAD): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function openCompact(key: Uint8Array, sealed: string, aad = LEGACY_CHECKPOINT_AAD): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(aad));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}
