import type { Logger } from '../log.js';

// Runs the recovery pass once on start and then every `intervalMs`; never two passes at once, and a
// failing pass is logged and retried on the next tick rather than stopping the worker.
export interface RecoveryWorker {
  /** Resolves when the pass started by this call (or the running one) has finished. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startRecoveryWorker(opts: { intervalMs: number; log: Logger; pass: () => Promise<number> }): RecoveryWorker {
  let running: Promise<void> | undefined;
  let stopped = false;
  const runNow = (): Promise<void> => {
    if (running) return running;
    running = (async () => {
      try {
        const resumed = await opts.pass();
        if (resumed > 0) opts.log.info({ resumed }, 'recovery pass resumed purchases');
      } catch (err) {
        opts.log.error({ err: { message: (err as Error).message, name: (err as Error).name } }, 'recovery pass failed');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  void runNow();
  const timer = setInterval(() => { if (!stopped) void runNow(); }, opts.intervalMs);
  timer.unref();
  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
