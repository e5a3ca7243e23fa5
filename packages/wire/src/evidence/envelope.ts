import * as t from 'io-ts';
import { bytesToHex } from '@noble/hashes/utils.js';
import { canonicalBytes } from './canonical-json.js';
import { ED25519, keyIdOf } from './public-key.js';

// Signed envelope (spec §2.6): {algorithm:'Ed25519', format:'service-evidence-v1', payload, signature},
// signature = Ed25519 over RFC 8785 JCS(payload), 128 lowercase hex. Browser-safe: the codec and the
// signer shape are shared with the buyer client; the byte signer (node:crypto or noble) is injected.

export const EVIDENCE_FORMAT = 'service-evidence-v1' as const;

export const SignatureHex = new t.Type<string, string, unknown>(
  'SignatureHex',
  (u): u is string => typeof u === 'string' && /^[0-9a-f]{128}$/.test(u),
  (u, c) =>
    typeof u === 'string' && /^[0-9a-f]{128}$/.test(u) ? t.success(u) : t.failure(u, c, '128 lowercase hex characters'),
  t.identity,
);

export const SignedEnvelope = t.type({
  algorithm: t.literal(ED25519),
  format: t.literal(EVIDENCE_FORMAT),
  payload: t.UnknownRecord,
  signature: SignatureHex,
});
export type SignedEnvelope = t.TypeOf<typeof SignedEnvelope>;

/** An envelope whose payload type is known to the producer (the codec above stays loose on payload). */
export interface Envelope<P = Record<string, unknown>> {
  algorithm: typeof ED25519;
  format: typeof EVIDENCE_FORMAT;
  payload: P;
  signature: string;
}

/** Raw Ed25519 over bytes; implemented by node:crypto (sign-node.ts) and by noble (sign-noble.ts). */
export interface ByteSigner {
  readonly publicKey: Uint8Array;
  signBytes(message: Uint8Array): Uint8Array;
}

export interface EvidenceSigner {
  readonly keyId: string;
  /** Raw public key, 64 lowercase hex. */
  readonly publicKey: string;
  sign<P extends Record<string, unknown>>(payload: P): Envelope<P> | Promise<Envelope<P>>;
}
/** Both our signers are synchronous; the service relies on that (signing inside a decision). */
export interface SyncEvidenceSigner extends EvidenceSigner {
  sign<P extends Record<string, unknown>>(payload: P): Envelope<P>;
}

export function envelopeSigner(raw: ByteSigner): SyncEvidenceSigner {
  return {
    keyId: keyIdOf(raw.publicKey),
    publicKey: bytesToHex(raw.publicKey),
    sign: <P extends Record<string, unknown>>(payload: P): Envelope<P> => ({
      algorithm: ED25519,
      format: EVIDENCE_FORMAT,
      payload,
      signature: bytesToHex(raw.signBytes(canonicalBytes(payload))),
    }),
  };
}

/** The bare signing function the money path's deps take (`deps.sign`). */
export function createSigner(raw: ByteSigner): <P extends Record<string, unknown>>(payload: P) => Envelope<P> {
  return envelopeSigner(raw).sign;
}
