import type { CheckpointPayload } from '@rights-preflight/wire/contract/checkpoint.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { checkCheckpoint } from '@rights-preflight/wire/revalidation/checkpoint-check.js';

// Offline verification of a revalidation checkpoint (docs/wire.md §14), alone or inside the report it was
// delivered in. Pure, synchronous, browser-safe; the reasons never contain a secret (a checkpoint holds none).

export type CheckpointVerification = { ok: true; checkpoint: CheckpointPayload } | { ok: false; reason: string };

/** A checkpoint kept on its own: signed by the pinned key, unaltered, and a checkpoint. */
export function verifyCheckpoint(checkpoint: unknown, evidenceKeyHex: string): CheckpointVerification {
  const key = evidenceKeyHex.toLowerCase();
  let keyId: string;
  try {
    keyId = keyIdOf(key);
  } catch {
    return { ok: false, reason: 'the pinned evidence key is not 64 hex characters' };
  }
  const checked = checkCheckpoint(checkpoint, [{ key_id: keyId, public_key: key }]);
  if (!checked.ok) return { ok: false, reason: `${checked.code}: ${checked.message}` };
  return { ok: true, checkpoint: checked.payload };
}

interface DeliveredReport {
  report: {
    purchase_id: string;
    resources: readonly { resource: string; classification: string; checkpoint?: unknown }[];
  };
  evidence: { payload: unknown };
}

/**
 * Each resource's checkpoint of a delivered report, when it has one (reports delivered before checkpoints
 * existed carry null): it verifies, and names this report's resource, classification, purchase and evidence.
 * Returns the first failure as a reason, or null.
 */
export function checkpointsOfReportFail(body: DeliveredReport, evidenceKeyHex: string): string | null {
  const evidenceSha256 = digestOf(body.evidence.payload);
  for (const [i, r] of body.report.resources.entries()) {
    if (r.checkpoint === null || r.checkpoint === undefined) continue;
    const v = verifyCheckpoint(r.checkpoint, evidenceKeyHex);
    if (!v.ok) return `checkpoint of resource ${i}: ${v.reason}`;
    const c = v.checkpoint;
    if (c.evidence_sha256 !== evidenceSha256) return `checkpoint of resource ${i} belongs to another report's evidence`;
    if (c.resource !== r.resource || c.classification !== r.classification || c.purchase_id !== body.report.purchase_id)
      return `checkpoint of resource ${i} differs from the report (resource, classification or purchase)`;
  }
  return null;
}
