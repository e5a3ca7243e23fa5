// One in-process owner per purchase for the steps after the checkpoint (settle, deliver, resume).
// Concurrent callers in this process share the owner's promise instead of submitting the same
// authorization twice; other processes are kept apart by the store's expected-revision appends and,
// ultimately, by the token's one-use nonce. This is an optimisation of the wait, not the guarantee.
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  has(key: string): boolean {
    return this.running.has(key);
  }

  /** Runs `work` unless it is already running for `key`, in which case the running promise is returned. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.running.get(key);
    if (existing) return existing;
    const p = (async () => work())().finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  /** Resolves when nothing is running (graceful stop). */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }
}
