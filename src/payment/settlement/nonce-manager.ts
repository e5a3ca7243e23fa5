import { BaseError } from 'viem';

// One relayer account's transaction nonces (docs/decisions.md, "Settlement at chain speed"). The next
// nonce is read from the chain (pending count) at the first broadcast and again after any failed one;
// in between it is assigned here, so settlements broadcast one after another without waiting for
// each other's receipts. Only the broadcast itself (assign, sign, hand to the node) is one at a time:
// a node then sees this account's nonces in order (Hardhat's automine refuses a nonce ahead of the
// chain, and so do some RPC providers), and a broadcast the node refused leaves no gap behind it.

export interface NonceManager {
  /**
   * Runs `broadcast` with this account's next nonce, one broadcast at a time. After success the next
   * nonce is one more. After a nonce error (another process used the nonce) it is read from the chain
   * and `broadcast` runs again with it, at most `attempts` times in all; after any other failure it is
   * read from the chain before the next broadcast, and the failure is passed on.
   */
  broadcast<T>(broadcast: (nonce: number) => Promise<T>): Promise<T>;
}

export function createNonceManager(readPendingCount: () => Promise<number>, attempts = 5): NonceManager {
  let next: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    broadcast<T>(broadcast: (nonce: number) => Promise<T>): Promise<T> {
      const run = queue.then(async () => {
        for (let attempt = 1; ; attempt++) {
          const nonce = next ?? (await readPendingCount());
          next = undefined;
          try {
            const result = await broadcast(nonce);
            next = nonce + 1;
            return result;
          } catch (err) {
            if (!isNonceError(err) || attempt >= attempts) throw err;
          }
        }
      });
      queue = run.catch(() => {});
      return run;
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
