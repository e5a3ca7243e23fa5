// Wakes subscriptions that have caught up when new events may exist. A ring that happens between a
// subscriber's read and its wait is not lost: waiters pass the ring count they last saw.
export class Doorbell {
  private rings = 0;
  private waiters = new Set<() => void>();

  get count(): number {
    return this.rings;
  }

  private listeners = new Set<(stream: string | undefined) => void>();

  /**
   * Calls `wake` on every ring until the returned function is called, with the stream appended to when
   * the ringer knows it (undefined: some stream, e.g. another process's append heard through the database).
   */
  listen(wake: (stream: string | undefined) => void): () => void {
    this.listeners.add(wake);
    return () => this.listeners.delete(wake);
  }

  ring(stream?: string): void {
    this.rings++;
    for (const wake of this.listeners) wake(stream);
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
