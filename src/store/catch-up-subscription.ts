import type { Logger } from '../runtime/log.js';
import type { GlobalPosition, OnEvent, RecordedEvent, Subscription } from './port.js';
import type { Doorbell } from './doorbell.js';

export interface CatchUpOptions {
  readAll(from: GlobalPosition, limit: number): Promise<RecordedEvent[]>;
  from: GlobalPosition;
  onEvent: OnEvent;
  doorbell: Doorbell;
  /** Upper bound on how long a caught-up subscription sleeps without a ring (missed notifications, other writers). */
  pollMs: number;
  log?: Logger;
  pageSize?: number;
}

/**
 * Catch-up then live delivery for the SQL adapters, built only on `readAll`: read pages until a
 * short page, then sleep until the doorbell rings or the poll interval passes, and read again.
 * Because readAll never skips an event (see sql/sql-event-store.ts), neither does this.
 * A failing read is retried (the database may come back); a throwing handler ends the subscription,
 * since retrying a deterministic handler on the same event cannot succeed.
 */
export function catchUpSubscription(opts: CatchUpOptions): Subscription {
  const pageSize = opts.pageSize ?? 500;
  let closed = false;
  let position = opts.from;

  const loop = (async () => {
    let failures = 0;
    while (!closed) {
      const seen = opts.doorbell.count;
      let page: RecordedEvent[];
      try {
        page = await opts.readAll(position, pageSize);
        failures = 0;
      } catch (err) {
        if (closed) return;
        failures++;
        opts.log?.warn({ err, failures }, 'subscription read failed; retrying');
        // any ring (new events or close) cuts the backoff short
        await opts.doorbell.wait(opts.doorbell.count, Math.min(5_000, 100 * 2 ** failures));
        continue;
      }
      for (const event of page) {
        if (closed) return;
        try {
          await opts.onEvent(event);
        } catch (err) {
          opts.log?.error(
            { err, position: String(event.position), stream: event.stream },
            'subscription handler failed; subscription stopped',
          );
          closed = true;
          return;
        }
        position = event.position;
      }
      if (page.length < pageSize && !closed) await opts.doorbell.wait(seen, opts.pollMs);
    }
  })();

  return {
    async close() {
      closed = true;
      opts.doorbell.ring();
      await loop;
    },
  };
}

/** A subscription a store keeps in `open` (to close it with the store) until it is closed itself. */
export function heldSubscription(open: Set<Subscription>, opts: CatchUpOptions): Subscription {
  const inner = catchUpSubscription(opts);
  const sub: Subscription = {
    async close() {
      open.delete(sub);
      await inner.close();
    },
  };
  open.add(sub);
  return sub;
}
