import type { EventStore, GlobalPosition } from './port.js';

// Waiting for another writer's next step on one stream, through the store's own notifications (the
// subscription wakes on appends: this process's at once, other processes' through PostgreSQL NOTIFY or
// EventStoreDB's live feed) rather than by reading the stream on a timer. Used by whoever loses a race
// to the winner's outcome (docs/decisions.md, "One walk for a paid redemption"): such waits are rare and
// start at the stream's last position, so catching up costs only what was appended since.

/**
 * Resolves true when an event of `stream` is appended after global position `after`, false once
 * `timeoutMs` has passed without one. The subscription is closed either way.
 */
export function nextAppend(
  store: Pick<EventStore, 'subscribeAll'>,
  stream: string,
  after: GlobalPosition,
  timeoutMs: number,
): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (appended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(appended);
      // Closing from inside the subscription's own delivery must not wait for that delivery to end.
      queueMicrotask(() => void subscription.close().catch(() => {}));
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    const subscription = store.subscribeAll(after, (event) => {
      if (event.stream === stream) finish(true);
    });
  });
}
