import type { Logger } from '../runtime/log.js';
import type { InFlight } from './inflight.js';

// Recovery: paid-but-undelivered purchases are resumed on start and every `intervalMs`.
// `recoveryPass` is one pass (built from its deps by the composition root); `startRecoveryWorker`
// runs it once on start and then on its interval, never two passes at once, and a failing pass is
// logged and retried on the next tick rather than stopping the worker.

interface RecoveryPassDeps {
  /** Resolves once the read models have caught up with the store (rejects after `timeoutMs`). */
  caughtUp(timeoutMs: number): Promise<void>;
  /** The purchases to look at: checkpointed, submitted or settled, not delivered (an indexed query). */
  candidates(): Promise<string[]>;
  /** Resumes one purchase from its checkpoint (src/money-path/resume.ts). */
  resume(id: string): Promise<unknown>;
  /** Purchases a request is already advancing; the pass leaves them to it. */
  inflight: InFlight<unknown>;
  log: Logger;
  /** How long a pass waits for the read models before leaving the work to the next pass. */
  catchUpMs: number;
}

/** One recovery pass: how many purchases it resumed. A purchase whose resume fails is logged and
 *  left to the next pass. */
export function recoveryPass(deps: RecoveryPassDeps): () => Promise<number> {
  return async () => {
    try {
      await deps.caughtUp(deps.catchUpMs);
    } catch {
      deps.log.info({}, 'read models still catching up; recovery waits for the next pass');
      return 0;
    }
    let n = 0;
    for (const id of await deps.candidates()) {
      if (deps.inflight.has(id)) continue;
      await deps.inflight
        .run(id, () => deps.resume(id))
        .catch((err) => deps.log.error({ purchase_id: id, err: { message: (err as Error).message } }, 'resume failed'));
      n++;
    }
    return n;
  };
}

export interface RecoveryWorker {
  /** Resolves when the pass started by this call (or the running one) has finished. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startRecoveryWorker(opts: {
  intervalMs: number;
  log: Logger;
  pass: () => Promise<number>;
}): RecoveryWorker {
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
  const timer = setInterval(() => {
    if (!stopped) void runNow();
  }, opts.intervalMs);
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
