import { BaseError } from 'viem';

// One relayer account's transaction nonces (docs/decisions.md, "Settlement at chain speed" and "Broadcasts
// in batches"). The next nonce is read from the chain (pending count) at the first broadcast and again
// after any failed one; in between it is assigned here, so settlements broadcast one after another
// without waiting for each other's receipts.
//
// A broadcast has two steps. `prepare` (sign, write the transaction ahead in the purchase stream) may run
// for many nonces at once: the settlements waiting when a batch starts get consecutive nonces and prepare
// together, so their write-ahead appends share the store's group commit instead of queueing one behind
// another. `send` (hand the signed bytes to the node) runs one at a time in nonce order: a node then sees
// this account's nonces in order (Hardhat's automine refuses a nonce ahead of the chain, and so do some
// RPC providers), and after a failure nothing later in the batch is sent, so no gap is left behind it:
// those settlements prepare again at fresh nonces (their first write-ahead record names a transaction
// that was never sent, which recovery reads as dropped).

export interface BroadcastSteps<P, T> {
  /** Sign and record the transaction for `nonce`; nothing is sent yet. */
  prepare(nonce: number): Promise<P>;
  /** Hand the prepared transaction to the node. */
  send(prepared: P, nonce: number): Promise<T>;
}

interface NonceManager {
  /**
   * Prepares and sends one transaction at this account's next nonce. After a nonce error at `send` (another
   * process used the nonce) the nonce is read from the chain and both steps run again, at most `attempts`
   * times in all; after any other failed send the nonce is read from the chain before the next broadcast,
   * and the failure is passed on. A failed `prepare` sent nothing, so its nonce is the next one.
   */
  broadcast<P, T>(steps: BroadcastSteps<P, T>): Promise<T>;
}

interface Job {
  steps: BroadcastSteps<unknown, unknown>;
  attempt: number;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/** A batch is bounded so one burst does not hold every later settlement behind its sends. */
const MAX_BATCH = 64;

export function createNonceManager(readPendingCount: () => Promise<number>, attempts = 5): NonceManager {
  let next: number | undefined;
  const waiting: Job[] = [];
  let draining = false;

  /** Runs one batch: consecutive nonces, prepared together, sent in order until the first failure. */
  async function runBatch(batch: Job[]): Promise<void> {
    let base: number;
    try {
      base = next ?? (await readPendingCount());
    } catch (err) {
      for (const job of batch) job.reject(err);
      return;
    }
    next = undefined;
    const prepared = await Promise.allSettled(batch.map((job, i) => job.steps.prepare(base + i)));
    for (let i = 0; i < batch.length; i++) {
      const job = batch[i]!;
      const p = prepared[i]!;
      if (p.status === 'rejected') {
        // Every nonce before this one was sent and the node saw nothing at this one: it is the next.
        next = base + i;
        job.reject(p.reason);
        waiting.unshift(...batch.slice(i + 1)); // not sent: they prepare again at fresh nonces
        return;
      }
      try {
        job.resolve(await job.steps.send(p.value, base + i));
        next = base + i + 1;
      } catch (err) {
        next = undefined;
        if (isNonceError(err) && job.attempt < attempts) {
          job.attempt++;
          waiting.unshift(...batch.slice(i));
        } else {
          job.reject(err);
          waiting.unshift(...batch.slice(i + 1));
        }
        return;
      }
    }
  }

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (waiting.length > 0) await runBatch(waiting.splice(0, MAX_BATCH));
    } finally {
      draining = false;
    }
  }

  return {
    broadcast<P, T>(steps: BroadcastSteps<P, T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({
          steps: steps as BroadcastSteps<unknown, unknown>,
          attempt: 1,
          resolve: resolve as (v: unknown) => void,
          reject,
        });
        if (!draining) void drain();
      });
    },
  };
}

/** The node refused the transaction for its nonce: it was not accepted, and a fresh nonce may be tried. */
export function isNonceError(err: unknown): boolean {
  const texts: string[] = [];
  if (err instanceof BaseError)
    err.walk((e) => {
      texts.push(String((e as { details?: unknown }).details ?? ''), (e as Error).message);
      return false;
    });
  else if (err instanceof Error) texts.push(err.message);
  return texts.some((m) => /nonce too (low|high)|invalid nonce|replacement transaction underpriced/i.test(m));
}
