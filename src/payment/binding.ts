import { createHash } from 'node:crypto';
import { canonicalJson } from '../evidence/canonical-json.js';

// Request binding (spec §5.4, DESIGN.md §4). Minimal version written by the money-path owner because
// it was needed before item 4 landed; the binding owner may extend it (test vectors, gate inputs).
//   nonce = 0x6163717075627631 ‖ first 48 hex of sha256(JCS({version, resource, key, input_sha256}))

export const NONCE_PREFIX = '0x6163717075627631' as const; // "acqpubv1"
export const BINDING_VERSION = 'service-request-v1' as const;

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Digest of the normalized input (JCS), lowercase hex. */
export const inputSha256 = (normalizedInput: unknown): string => sha256Hex(canonicalJson(normalizedInput));

export function boundNonce(b: { resource: string; key: string; input_sha256: string }): `0x${string}` {
  const digest = sha256Hex(canonicalJson({ version: BINDING_VERSION, resource: b.resource, key: b.key, input_sha256: b.input_sha256 }));
  return `${NONCE_PREFIX}${digest.slice(0, 48)}`;
}
