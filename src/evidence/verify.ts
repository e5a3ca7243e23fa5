import { verifyAsync } from '@noble/ed25519';
import { canonicalBytes } from './canonical-json.js';

// Portable verification (buyer client, tests): Ed25519 over JCS(payload) with the published public key.
export async function verifyEnvelope(envelope: { algorithm?: unknown; format?: unknown; payload?: unknown; signature?: unknown }, publicKeyHex: string): Promise<boolean> {
  if (envelope.algorithm !== 'Ed25519' || envelope.format !== 'service-evidence-v1') return false;
  if (typeof envelope.signature !== 'string' || !/^[0-9a-f]{128}$/.test(envelope.signature)) return false;
  if (typeof envelope.payload !== 'object' || envelope.payload === null) return false;
  try {
    return await verifyAsync(Buffer.from(envelope.signature, 'hex'), canonicalBytes(envelope.payload), Buffer.from(publicKeyHex, 'hex'));
  } catch {
    return false;
  }
}
