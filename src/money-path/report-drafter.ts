import type { Checkpoint, CheckpointDraft } from '@rights-preflight/wire/contract/checkpoint.js';

// A product's report and evidence payload, drafted from what was observed at quote time (the `Quoted`
// reading): what the buyer was offered and paid for, so a resumed delivery is identical in content.
// Each SKU's product drafts its own (./product.ts); signing, the settlement binding and the delivery
// proof are the money path's (./deliver.ts), so the money path imports no product and knows no report's
// shape: the product's wire bodies check what is delivered (docs/wire.md).

export interface DraftedReport {
  evidence: Record<string, unknown>;
  /** One per report resource, in order: the money path ties each to the evidence and signs it (./deliver.ts). */
  checkpoints: CheckpointDraft[];
  /** The report, each resource carrying its signed checkpoint (given in the order of `checkpoints`). */
  report(checkpoints: readonly Checkpoint[]): object;
}
