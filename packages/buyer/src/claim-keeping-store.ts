import type { CheckpointStore } from './checkpoint-store.js';

// A checkpoint store that also keeps, in a second encrypted store, each purchase's claim after the
// buyer has removed the checkpoint on delivery: the claim (the binding key) is what authorizes a
// refund request later (docs/wire.md, refund requests). The used payment signature is not kept.
//
//   const store = claimKeepingStore(fileCheckpointStore(dir, key), fileCheckpointStore(`${dir}/claims`, key));
//   (await claims.load(purchaseId))?.key   // the X-Service-Claim of a refund request
export function claimKeepingStore(checkpoints: CheckpointStore, claims: CheckpointStore): CheckpointStore {
  return {
    async save(cp) {
      await claims.save({ ...cp, payment_signature: '' });
      await checkpoints.save(cp);
    },
    load: (id) => checkpoints.load(id),
    remove: (id) => checkpoints.remove(id),
    ids: () => checkpoints.ids(),
  };
}
