import type { Logger } from '../src/runtime/log.js';
import type { SqlDriver } from '../src/store/sql-driver.js';
import { catchUp, PAGE_SIZE } from './catch-up.js';
import type { FactFeed } from './feed/feed.js';
import { readCheckpoint } from './schema.js';
import { CheckpointMoved } from './write-batch.js';

// Follows `$all` into the read-model tables: read a large page of facts, apply it in one transaction
// with the checkpoint, repeat; when caught up, sleep until an append rings or the poll interval
// passes. Only the leader runs it (leadership.ts). It holds no rows between pages.

export interface ProjectorOptions {
  db: SqlDriver;
  feed: FactFeed;
  log?: Logger;
  /** Rings when events may have been appended (the store's own appends, other writers' notifications). */
  onAppend?: (wake: () => void) => () => void;
  pageSize?: number;
  pollMs?: number;
  /**
   * After an append rings, wait this long before reading, so the appends of a busy moment are
   * projected as one page (one read, one transaction) instead of one cycle each. Read-your-writes
   * waits that much longer; nothing on the buyer's path waits for the read models.
   */
  coalesceMs?: number;
  /** Called after every page is committed with the new checkpoint. */
  onAdvance?: (position: bigint) => void;
}

export interface Projector {
  /** The checkpoint this projector last committed. */
  position(): bigint;
  /** Resolves once the projector has committed a position ≥ `position`. */
  reached(position: bigint, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export function startProjector(opts: ProjectorOptions): Projector {
  const pageSize = opts.pageSize ?? PAGE_SIZE;
  const pollMs = opts.pollMs ?? 1000;
  // 100 ms: under a flow of paid redemptions each cycle (a read, a transaction of ~9 statements) costs the
  // service's CPU as much as two appends; read models lag by that much, and nothing a buyer waits for
  // reads them (docs/decisions.md, "One walk for a paid redemption").
  const coalesceMs = opts.coalesceMs ?? 100;
  let position = -1n;
  let stopped = false;
  let rings = 0;
  let wake: (() => void) | undefined;
  const ring = () => {
    rings++;
    wake?.();
  };
  const unlisten = opts.onAppend?.(ring);
  const waiters = new Set<{ position: bigint; resolve: () => void; reject: (e: Error) => void }>();

  const sleep = (seen: number, ms: number) =>
    new Promise<void>((resolve) => {
      if (rings !== seen || stopped) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const advanced = (to: bigint) => {
    position = to;
    opts.onAdvance?.(to);
    for (const w of [...waiters])
      if (to >= w.position) {
        waiters.delete(w);
        w.resolve();
      }
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopped) {
      const seen = rings;
      try {
        if (position < 0n) advanced((await readCheckpoint(opts.db)).position);
        // A backlog (a start after downtime, a rebuild after a version change) goes through the
        // pipelined catch-up; waiters hear of every committed page.
        const done = await catchUp(opts.db, opts.feed, { pageSize, onCommitted: advanced });
        failures = 0;
        if (done.events === 0) {
          await sleep(seen, pollMs);
          if (rings !== seen && !stopped && coalesceMs > 0)
            await new Promise((resolve) => setTimeout(resolve, coalesceMs));
        }
      } catch (err) {
        if (stopped) break;
        if (err instanceof CheckpointMoved) {
          // Someone else moved it (an operator's replay, a second leader): start again from where it is now.
          opts.log?.warn({ err: { message: err.message } }, 'read-model checkpoint moved elsewhere; reloading it');
          position = -1n;
          continue;
        }
        failures++;
        opts.log?.error(
          { err: { message: (err as Error).message, name: (err as Error).name }, failures },
          'read-model projection failed; retrying',
        );
        position = -1n;
        await sleep(rings, Math.min(5_000, 100 * 2 ** failures));
      }
    }
  })();

  return {
    position: () => position,
    reached(target, timeoutMs = 30_000) {
      if (position >= target) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = {
          position: target,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
          reject: (e: Error) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`read models did not reach position ${target} within ${timeoutMs} ms (at ${position})`));
        }, timeoutMs);
        waiters.add(w);
      });
    },
    async stop() {
      stopped = true;
      unlisten?.();
      wake?.();
      await loop;
      for (const w of waiters) w.reject(new Error('read-model projector stopped'));
      waiters.clear();
    },
  };
}
