import {
  formatTransactionReceipt,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type RpcTransactionReceipt,
} from 'viem';

// One watcher for the receipts a relayer waits for (docs/decisions.md, "Receipt watcher and a leaner JSON-RPC
// fetch"). Each settlement polling its own receipt and the head every half block cost 50 settlements at once
// hundreds of JSON-RPC requests per second, most of them answering "not mined yet". The watcher reads the head
// once per poll and asks for receipts only when it moved (a sealed receipt cannot appear without a new block),
// for every waiting hash in the same turn of the event loop, so they travel as one JSON-RPC batch (chainClient).
// A hash it has not asked about yet is asked at once, with the head, in the same batch: on a node that mines
// each transaction as it arrives, the receipt is there at the first look, as it was before.
//
// Levels are those of `receiptAt` (chain-reads.ts): a receipt in a block past the sealed head is a
// Flashblocks preconfirmation, taken only with `preconfirmed`, and since a preconfirmation appears without
// the head moving, `preconfirmed` asks for every waiting hash at each poll.

/** How final a receipt is: in a sealed block, or only preconfirmed by a Flashblocks-aware node. */
export type Confirmation = 'block' | 'preconfirmed';

interface Seen {
  receipt: TransactionReceipt;
  level: Confirmation;
}

interface Waiter {
  hashes: readonly Hex[];
  until: number;
  /** The head at which every hash of this waiter was last asked for (undefined: not asked yet). */
  askedAt?: bigint;
  resolve(seen: Seen | undefined): void;
  reject(err: unknown): void;
}

/** One watcher per relayer (or per recovery read): its waiters share its polls and batches. */
export function receiptWatcher(
  pub: PublicClient,
  o: { pollMs: number; confirmation?: Confirmation | undefined },
): ReceiptWatcher {
  return new Watcher(pub, o.pollMs, o.confirmation ?? 'block');
}

export interface ReceiptWatcher {
  /**
   * The first of `hashes` with a receipt as `confirmation` counts it, looked for at least once and then
   * until `withinMs` has passed (undefined then). A failed read of the head or of one of these receipts
   * rejects it, as a failed read did when each settlement polled its own.
   */
  first(hashes: readonly Hex[], withinMs: number): Promise<Seen | undefined>;
}

class Watcher implements ReceiptWatcher {
  private readonly waiting = new Set<Waiter>();
  private running = false;
  private scheduled:
    | { kind: 'now'; timer: ReturnType<typeof setImmediate> }
    | { kind: 'later'; timer: ReturnType<typeof setTimeout> }
    | undefined;
  private readonly format: (raw: never, action: string) => unknown;

  constructor(
    private readonly pub: PublicClient,
    private readonly pollMs: number,
    private readonly confirmation: Confirmation,
  ) {
    this.format = (pub.chain?.formatters?.transactionReceipt?.format ?? formatTransactionReceipt) as never;
  }

  first(hashes: readonly Hex[], withinMs: number): Promise<Seen | undefined> {
    return new Promise<Seen | undefined>((resolve, reject) => {
      this.waiting.add({ hashes: [...hashes], until: Date.now() + Math.max(withinMs, 0), resolve, reject });
      this.schedule();
    });
  }

  /** The receipt of `hash`, or null: the same request and formatting as viem's getTransactionReceipt, minus
   *  the error it builds (a stack trace and a message) for every "not mined yet". */
  private async receiptOf(hash: Hex): Promise<TransactionReceipt | null> {
    const raw = (await this.pub.request(
      { method: 'eth_getTransactionReceipt', params: [hash] },
      { dedupe: true },
    )) as RpcTransactionReceipt | null;
    return raw ? (this.format(raw as never, 'getTransactionReceipt') as TransactionReceipt) : null;
  }

  /**
   * Asks for every hash of `asked` and then for the head (`readHead`), in this turn of the event loop: one
   * JSON-RPC batch, receipts first, so on a node without preconfirmations the head read is at or past any
   * receipt's block. Answers the waiters it can; returns the head (undefined when it could not be read).
   */
  private async ask(asked: readonly Waiter[], readHead: () => Promise<bigint>): Promise<bigint | undefined> {
    const reads = new Map<Hex, Promise<TransactionReceipt | null>>();
    for (const w of asked) for (const h of w.hashes) if (!reads.has(h)) reads.set(h, this.receiptOf(h));
    for (const r of reads.values()) r.catch(() => {}); // each failure is given to its own waiters below
    let sealed: bigint;
    try {
      sealed = await readHead();
    } catch (err) {
      for (const w of asked) this.reject(w, err);
      return undefined;
    }
    for (const w of asked) {
      if (!this.waiting.has(w)) continue;
      w.askedAt = sealed;
      for (const h of w.hashes) {
        let receipt: TransactionReceipt | null;
        try {
          receipt = await reads.get(h)!;
        } catch (err) {
          this.reject(w, err);
          break;
        }
        if (!receipt) continue;
        if (receipt.blockNumber <= sealed) {
          this.answer(w, { receipt, level: 'block' });
          break;
        }
        // Past the sealed head: a preconfirmation. With `block`, the head's next move asks again.
        if (this.confirmation === 'preconfirmed') {
          this.answer(w, { receipt, level: 'preconfirmed' });
          break;
        }
      }
    }
    return sealed;
  }

  private async cycle(): Promise<void> {
    this.scheduled = undefined;
    this.running = true;
    try {
      // The receipts of the hashes not asked about yet travel with the head read.
      const fresh = [...this.waiting].filter((w) => w.askedAt === undefined);
      const sealed = await this.ask(fresh, () => this.pub.getBlockNumber({ cacheTime: 0 }));
      if (sealed !== undefined) {
        const moved = [...this.waiting].filter(
          (w) => !fresh.includes(w) && (this.confirmation === 'preconfirmed' || (w.askedAt ?? -1n) < sealed),
        );
        if (moved.length > 0) await this.ask(moved, async () => sealed);
      }
      const now = Date.now();
      for (const w of this.waiting) if (w.askedAt !== undefined && now >= w.until) this.answer(w, undefined);
    } finally {
      this.running = false;
      if (this.waiting.size > 0) this.schedule();
    }
  }

  /** The next look: at once for a hash not asked about yet, else after a poll or at the nearest deadline. */
  private schedule(): void {
    if (this.running || this.scheduled?.kind === 'now') return;
    let delay = this.pollMs;
    for (const w of this.waiting)
      delay = w.askedAt === undefined ? 0 : Math.min(delay, Math.max(w.until - Date.now(), 0));
    if (this.scheduled) clearTimeout(this.scheduled.timer);
    // "At once" is the next turn of the event loop: the waiters that arrive in this one share the batch.
    const run = () => void this.cycle();
    this.scheduled =
      delay === 0 ? { kind: 'now', timer: setImmediate(run) } : { kind: 'later', timer: setTimeout(run, delay) };
  }

  private answer(w: Waiter, seen: Seen | undefined): void {
    if (this.waiting.delete(w)) w.resolve(seen);
  }

  private reject(w: Waiter, err: unknown): void {
    if (this.waiting.delete(w)) w.reject(err);
  }
}
