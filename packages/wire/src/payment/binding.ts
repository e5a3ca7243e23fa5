import { canonicalJson } from '../evidence/canonical-json.js';
import { sha256Hex } from '../evidence/digest.js';
import { Bytes32 } from '../contract/primitives.js';

// Request binding (spec §5.4): the EIP-3009 nonce the buyer must sign is derived from
// the request, so a payment authorization can only ever pay for the one report it was made for.
//   nonce = 0x6163717075627631 ("acqpubv1") ‖ first 48 hex of sha256(JCS({version, resource, key, input_sha256}))
// Browser-safe on purpose (no node: imports; digest.ts's sha256): the buyer client computes the same
// nonce before signing. Test vectors other implementations can check: packages/wire/vectors/binding.json.

export const NONCE_PREFIX = '0x6163717075627631' as const;
export const BINDING_VERSION = 'service-request-v1' as const;

export interface BindingInput {
  /** Canonical resource URL (for the ingestion gate: the canonical gate endpoint URL). */
  resource: string;
  /** The private retry key: the claim token (quote flow) or the X-Service-Request value. */
  key: string;
  /** inputSha256(normalizedInput), 64 lowercase hex. */
  input_sha256: string;
}

/** sha256 (lowercase hex) of the RFC 8785 form of the normalized input; routes and buyer share it. */
export function inputSha256(normalizedInput: unknown): string {
  return sha256Hex(canonicalJson(normalizedInput));
}

export function boundNonce(b: BindingInput): `0x${string}` {
  const digest = sha256Hex(
    canonicalJson({ version: BINDING_VERSION, resource: b.resource, key: b.key, input_sha256: b.input_sha256 }),
  );
  return `${NONCE_PREFIX}${digest.slice(0, 48)}`;
}

/** Whether a nonce has the binding's shape at all (a random-nonce client almost never produces it). */
export const looksBound = (nonce: string): boolean =>
  nonce.toLowerCase().startsWith(NONCE_PREFIX) && Bytes32.is(nonce.toLowerCase());
