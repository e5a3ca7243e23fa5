import { sign as edSign } from 'node:crypto';
import { canonicalBytes } from './canonical-json.js';
import type { EvidenceKey } from './keys.js';

// Signed envelope (spec §2.6): Ed25519 over JCS(payload), 128 lowercase hex. node:crypto signs (fast,
// constant-time native code); buyers verify with @noble/ed25519 (verify.ts).
export interface Envelope<P = Record<string, unknown>> { algorithm: 'Ed25519'; format: 'service-evidence-v1'; payload: P; signature: string }

export function createSigner(key: EvidenceKey) {
  return <P extends Record<string, unknown>>(payload: P): Envelope<P> => ({
    algorithm: 'Ed25519',
    format: 'service-evidence-v1',
    payload,
    signature: edSign(null, canonicalBytes(payload), key.privateKey).toString('hex'),
  });
}
