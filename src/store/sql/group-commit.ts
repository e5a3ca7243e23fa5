/**
 * Group commit: appends that arrive while a transaction is committing wait, and then go together in
 * the next one. The first append of a quiet moment starts at once (a batch of one: no added latency);
 * under load one transaction, one append-order lock and one flush to disk serve many commands.
 *
 * `commit` returns one outcome per request, in order. A request that fails on its own terms (a
 * WrongExpectedRevision) is an outcome, not a failure of the batch: only its own caller sees it.
 * Every caller's promise settles after the transaction that holds its events has committed.
 *
 *   const append = groupCommit((batch) => db.transaction((tx) => appendAll(tx, batch)));
 *   await append({ stream, events, expected });
 */

export type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

interface Pending<Request, Result> {
  request: Request;
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
}

export function groupCommit<Request, Result>(
  commit: (batch: readonly Request[]) => Promise<Outcome<Result>[]>,
  maxBatch = 256,
): (request: Request) => Promise<Result> {
  if (!Number.isInteger(maxBatch) || maxBatch < 1)
    throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  let queue: Pending<Request, Result>[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    draining = true;
    try {
      while (queue.length > 0) {
        const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
        queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
        let outcomes: Outcome<Result>[];
        try {
          outcomes = await commit(batch.map((p) => p.request));
          if (outcomes.length !== batch.length)
            throw new Error(`group commit: ${outcomes.length} outcomes for ${batch.length} requests`);
        } catch (error) {
          outcomes = batch.map(() => ({ ok: false, error }));
        }
        for (const [i, p] of batch.entries()) {
          const o = outcomes[i]!;
          if (o.ok) p.resolve(o.value);
          else p.reject(o.error);
        }
      }
    } finally {
      draining = false;
    }
  }

  return (request) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ request, resolve, reject });
      if (!draining) void drain();
    });
}
