import type { CheckpointPayload } from '@rights-preflight/wire/contract/checkpoint.js';
import { digestOf } from '@rights-preflight/wire/evidence/digest.js';
import { loadPurchase } from '../../money-path/sale.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { nextTurn } from '../../rsl/next-turn.js';
import type { EventStore } from '../../store/port.js';

// The report a checkpoint was delivered in, found by its purchase and proven by the evidence digest the
// checkpoint signs: its report_sha256 is the revalidation's `previous_report_sha256`, so a chain of
// revalidations ties back to the first report. A checkpoint whose report this service has not delivered
// (another deployment's store, a store that was reset) is refused before anything is fetched.

export async function previousReportSha256(store: EventStore, checkpoint: CheckpointPayload, index: number) {
  const { delivered } = await loadPurchase(store, checkpoint.purchase_id);
  await nextTurn(); // two digests of a whole report follow; let pending I/O in first
  if (!delivered || digestOf(delivered.response.evidence.payload) !== checkpoint.evidence_sha256)
    throw new Refusal(
      'CHECKPOINT_REPORT_UNKNOWN',
      'this service has no delivered report for the checkpoint (nothing was charged)',
      { field: `checkpoints.${index}` },
    );
  return digestOf(delivered.response.report);
}
