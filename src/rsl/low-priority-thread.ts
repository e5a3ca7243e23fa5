import os from 'node:os';

// The parse and signal-reader worker threads yield the CPU to the event loop that answers health checks
// and paid redemptions. On Linux a nice value is per thread (setpriority(2), NOTES: who=0 is the calling
// thread); elsewhere it may lower the whole process or be refused, so it is left alone there. Either way
// it only ever lowers.

/** Lowers the calling worker thread's CPU priority (Linux); keeps the default where not permitted. */
export function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(os.constants.priority.PRIORITY_LOW);
  } catch {
    /* not permitted: keep the default */
  }
}
