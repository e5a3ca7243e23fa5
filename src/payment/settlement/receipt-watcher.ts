import {
  formatTransactionReceipt,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type RpcTransactionReceipt,
} from 'viem';
import type { Confirmation } from './chain-reads.js';

// One watcher for the receipts a relayer waits for (docs/decisions.md, "Receipt watcher"). Each settlement
// polling its own receipt and the head every half block cost 50 settlements at once hundreds of JSON-RPC
// requests per second, most of them answering "not mined yet". The watcher reads the head once per poll
// and asks for receipts only when it moved (a sealed receipt cannot appear without a new block), for every
// waiting hash in the same turn of the event loop, so they travel as one JSON-RPC batch (chainClient).
// A hash it has not asked about yet is asked at once, with the head, in the same batch: on a node that mines
// each transaction as it arrives, the receipt is there at the first look, as it was before.
//
// Levels are those of `receiptAt` (chain-reads.ts): a receipt in a block past the sealed head is a
// Flashblocks preconfirmation, taken only with `preconfirmed`, and since a preconfirmation appears without
// the head moving, `preconfirmed` asks for every waiting hash at each poll.

export interface Seen {
  receipt: TransactionReceipt;
  level: Confirmation;
}

export interface ReceiptWatcher {
  /**
   * The first of `hashes` with a receipt as `confirmation` counts it, looked for at least once and then
   * until `withinMs` has passed (undefined then). A failed read of the head or of one of these receipts
   * rejects it, as a failed read did when each settlement polled its own.
   */
  first(hashes: readonly Hex[], withinMs: number): Promise<Seen | undefined>;
}

interface Waiter {
  hashes: readonly Hex[];
  until: number;
  /** The head at which every hash of this waiter was last asked for (undefined: not asked yet). */
  askedAt?: bigint;
  resolve(seen: Seen | undefined): void;
  reject(err: unknown): void;
}

export function receiptWatcher(
  pub: PublicClient,
  o: { pollMs: number; confirmation?: Confirmation | undefined },
): ReceiptWatcher {
  const confirmation = o.confirmation ?? 'block';
  const waiting = new Set<Waiter>();
  let running = false;
  let scheduled:
    | { kind: 'now'; timer: ReturnType<typeof setImmediate> }
    | { kind: 'later'; timer: ReturnType<typeof setTimeout> }
    | undefined;
  const format = pub.chain?.formatters?.transactionReceipt?.format ?? formatTransactionReceipt;

  /** The receipt of `hash`, or null: the same request and formatting as viem's getTransactionReceipt, minus
   *  the error it builds (a stack trace and a message) for every "not mined yet". */
  const receiptOf = async (hash: Hex): Promise<TransactionReceipt | null> => {
    const raw = (await pub.request(
      { method: 'eth_getTransactionReceipt', params: [hash] },
      { dedupe: true },
    )) as RpcTransactionReceipt | null;
    return raw ? (format(raw as never, 'getTransactionReceipt') as TransactionReceipt) : null;
  };

  /**
   * Asks for every hash of `asked` and then for the head (`readHead`), in this turn of the event loop: one
   * JSON-RPC batch, receipts first, so on a node without preconfirmations the head read is at or past any
   * receipt's block. Answers the waiters it can; returns the head (undefined when it could not be read).
   */
  async function ask(asked: readonly Waiter[], readHead: () => Promise<bigint>): Promise<bigint | undefined> {
    const reads = new Map<Hex, Promise<TransactionReceipt | null>>();
    for (const w of asked) for (const h of w.hashes) if (!reads.has(h)) reads.set(h, receiptOf(h));
    for (const r of reads.values()) r.catch(() => {}); // each failure is given to its own waiters below
    let sealed: bigint;
    try {
      sealed = await readHead();
    } catch (err) {
      for (const w of asked) reject(w, err);
      return undefined;
    }
    for (const w of asked) {
      if (!waiting.has(w)) continue;
      w.askedAt = sealed;
      for (const h of w.hashes) {
        let receipt: TransactionReceipt | null;
        try {
          receipt = await reads.get(h)!;
        } catch (err) {
          reject(w, err);
          break;
        }
        if (!receipt) continue;
        if (receipt.blockNumber <= sealed) {
          answer(w, { receipt, level: 'block' });
          break;
        }
        // Past the sealed head: a preconfirmation. With `block`, the head's next move asks again.
        if (confirmation === 'preconfirmed') {
          answer(w, { receipt, level: 'preconfirmed' });
          break;
        }
      }
    }
    return sealed;
  }

  async function cycle(): Promise<void> {
    scheduled = undefined;
    running = true;
    try {
      // The receipts of the hashes not asked about yet travel with the head read.
      const fresh = [...waiting].filter((w) => w.askedAt === undefined);
      const sealed = await ask(fresh, () => pub.getBlockNumber({ cacheTime: 0 }));
      if (sealed !== undefined) {
        const moved = [...waiting].filter(
          (w) => !fresh.includes(w) && (confirmation === 'preconfirmed' || (w.askedAt ?? -1n) < sealed),
        );
        if (moved.length > 0) await ask(moved, async () => sealed);
      }
      const now = Date.now();
      for (const w of waiting) if (w.askedAt !== undefined && now >= w.until) answer(w, undefined);
    } finally {
      running = false;
      if (waiting.size > 0) schedule();
    }
  }

  /** The next look: at once for a hash not asked about yet, else after a poll or at the nearest deadline. */
  function schedule(): void {
    if (running || scheduled?.kind === 'now') return;
    let delay = o.pollMs;
    for (const w of waiting) delay = w.askedAt === undefined ? 0 : Math.min(delay, Math.max(w.until - Date.now(), 0));
    if (scheduled) clearTimeout(scheduled.timer);
    // "At once" is the next turn of the event loop: the waiters that arrive in this one share the batch.
    scheduled =
      delay === 0 ? { kind: 'now', timer: setImmediate(cycle) } : { kind: 'later', timer: setTimeout(cycle, delay) };
  }

  function answer(w: Waiter, seen: Seen | undefined): void {
    if (waiting.delete(w)) w.resolve(seen);
  }
  function reject(w: Waiter, err: unknown): void {
    if (waiting.delete(w)) w.reject(err);
  }

  return {
    first(hashes, withinMs) {
      return new Promise<Seen | undefined>((resolve, reject) => {
        waiting.add({ hashes: [...hashes], until: Date.now() + Math.max(withinMs, 0), resolve, reject });
        schedule();
      });
    },
  };
}
