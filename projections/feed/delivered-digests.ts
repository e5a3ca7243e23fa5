import { digestOf as digest } from '@rights-preflight/wire/evidence/digest.js';
import { changedOfDelivered, signalsOfDelivered } from './event-facts.js';

// A Delivered event's digests computed from its stored response: for events written before the
// event carried `delivery_proof_sha256`, and for feeds whose events arrive whole. The same
// definitions as the delivery proof's own (sha256hex of the JCS of each part), so they match what
// `rights-preflight verify` recomputes from the report the buyer holds.

export function deliveredFactsFromData(data: unknown): Record<string, unknown> {
  const response = (data as { response?: Record<string, unknown> }).response ?? {};
  const evidence = response.evidence as { payload?: { key_id?: unknown } } | undefined;
  const proof = response.delivery_proof as { payload?: { delivered_at?: unknown } } | undefined;
  return {
    report_sha256: response.report === undefined ? null : digest(response.report),
    evidence_sha256: response.evidence === undefined ? null : digest(response.evidence),
    delivery_proof_sha256: response.delivery_proof === undefined ? null : digest(response.delivery_proof),
    evidence_key_id: evidence?.payload?.key_id ?? null,
    delivered_at: proof?.payload?.delivered_at ?? null,
    changed: changedOfDelivered(data),
    ...signalsOfDelivered(data),
  };
}

/** Whether a Delivered event's facts lack a digest (so they must be completed from its data). */
export const incompleteDelivered = (type: string, facts: unknown): boolean => {
  if (type !== 'Delivered') return false;
  const f = facts as Record<string, unknown> | null;
  return !f || f.report_sha256 == null || f.evidence_sha256 == null || f.delivery_proof_sha256 == null;
};
