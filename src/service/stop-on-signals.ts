import type { Logger } from '../runtime/log.js';

// SIGTERM (a container runtime, `npm start`'s npm passing it on, a kill of the whole process group)
// and SIGINT start one graceful stop; the process exits 0 once it is done. The same signal may arrive
// twice (sent to the group, then forwarded again by npm): a repeat is logged and otherwise ignored,
// never the default action that would kill the process mid-drain.
export function stopOnSignals(stop: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.info({ signal }, 'already stopping');
      return;
    }
    stopping = true;
    log.info({ signal }, 'stopping: draining in-flight requests');
    stop().then(
      () => {
        log.info({ signal }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err: { message: (err as Error).message } }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
