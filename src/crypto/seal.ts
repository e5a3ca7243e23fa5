import { A256GCM, type SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { fromBase64url, toBase64url } from '@rights-preflight/wire/crypto/base64url.js';

// The first money-path version sealed checkpoints synchronously in a compact form,
// "v1.<iv>.<tag>.<ciphertext>" (base64url, AES-256-GCM, one fixed AAD for every purchase). Nothing
// writes it any more (the service seals with ./aes-gcm.ts and checkpointAad(purchaseId), see
// ./checkpoint-seal.ts); old streams still hold it, so it is converted losslessly to a SealedBox and
// opened with WebCrypto under its fixed AAD.
export const LEGACY_CHECKPOINT_AAD = 'payment-checkpoint-v1';

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
