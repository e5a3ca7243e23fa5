import type { Logger } from '../src/runtime/log.js';
import type { Lease, SqlDriver } from '../src/store/sql-driver.js';

// One leader per database: the process holding the lease runs the projector and the recovery
// worker; the others serve HTTP and read the same tables, and try for the lease every `retryMs`, so
// one of them takes over within about that long after the leader dies. Leading starts `lead()` and
// stops what it returned when the lease is lost or leadership is given up.

export interface Leadership {
  isLeader(): boolean;
  /** Resolves after the first try for the lease (and, if it was won, after leading started). */
  readonly settled: Promise<void>;
  stop(): Promise<void>;
}

export function startLeadership(opts: {
  db: SqlDriver;
  name: string;
  log?: Logger;
  retryMs?: number;
  lead: () => Promise<() => Promise<void>>;
}): Leadership {
  const retryMs = opts.retryMs ?? 1_000;
  let stopped = false;
  let lease: Lease | undefined;
  let stopLeading: (() => Promise<void>) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let wakeLoop: (() => void) | undefined;
  let firstTry!: () => void;
  const settled = new Promise<void>((resolve) => {
    firstTry = resolve;
  });

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      wakeLoop = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = (async () => {
    while (!stopped) {
      try {
        lease = await opts.db.tryLease(opts.name);
      } catch (err) {
        opts.log?.warn({ err: { message: (err as Error).message } }, 'cannot try for leadership; retrying');
        lease = undefined;
      }
      if (!lease) {
        firstTry();
        await pause(retryMs);
        continue;
      }
      if (stopped) {
        await lease.release();
        break;
      }
      opts.log?.info({ lease: opts.name }, 'leading: running the read-model projector and the recovery worker');
      try {
        stopLeading = await opts.lead();
      } catch (err) {
        opts.log?.error({ err: { message: (err as Error).message } }, 'could not start leading; giving the lease back');
        await lease.release();
        lease = undefined;
        firstTry();
        await pause(retryMs);
        continue;
      }
      firstTry();
      if (!stopped)
        await Promise.race([
          lease.lost,
          new Promise<void>((resolve) => {
            wakeLoop = resolve;
          }),
        ]);
      const stopWork = stopLeading;
      stopLeading = undefined;
      await stopWork();
      await lease.release();
      lease = undefined;
    }
    firstTry();
  })();

  return {
    isLeader: () => stopLeading !== undefined,
    settled,
    async stop() {
      stopped = true;
      wakeLoop?.();
      await loop;
    },
  };
}
