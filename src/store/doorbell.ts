// Wakes subscriptions that have caught up when new events may exist. A ring that happens between a
// subscriber's read and its wait is not lost: waiters pass the ring count they last saw.
export class Doorbell {
  private rings = 0;
  private waiters = new Set<() => void>();

  get count(): number {
    return this.rings;
  }

  ring(): void {
    this.rings++;
    const waiting = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves on the next ring after `seen`, or after `timeoutMs` (the polling fallback). */
  wait(seen: number, timeoutMs: number): Promise<void> {
    if (this.rings !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      this.waiters.add(wake);
    });
  }
}
