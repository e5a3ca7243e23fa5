import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { inspectionAnswer } from './inspect-answer.js';
import type { InspectQuestion } from './inspect-document.js';
import { createParseCache } from './parse-cache.js';
import { threadStatPath } from './thread-cpu-clock.js';

// Entry of an inspect-pool worker thread: one job at a time, answered by id. Loaded only inside
// a worker started by inspect-pool.ts (workerData.tag says so); importing it elsewhere does nothing.

export const INSPECT_WORKER_TAG = 'rsl-inspect-worker';

if (parentPort && (workerData as { tag?: string } | null)?.tag === INSPECT_WORKER_TAG) {
  const port = parentPort;
  // On Linux a nice value is per thread (setpriority(2), NOTES: who=0 is the calling thread): the
  // parse workers yield the CPU to the event loop that answers health checks and paid redemptions.
  // Elsewhere this may lower the whole process or be refused; either way it only ever lowers.
  if (process.platform === 'linux') {
    try {
      os.setPriority(os.constants.priority.PRIORITY_LOW);
    } catch {
      /* not permitted: keep the default */
    }
  }
  const cache = createParseCache((workerData as { parseCacheChars?: number }).parseCacheChars ?? 0);
  // The pool's deadline counts this thread's CPU time, read from here (inspect-pool.ts).
  port.postMessage({ ready: threadStatPath() });
  port.on('message', (job: { id: number; xml: string; question: InspectQuestion }) => {
    try {
      port.postMessage({ id: job.id, answer: inspectionAnswer(job.xml, job.question, cache) });
    } catch (err) {
      port.postMessage({ id: job.id, error: (err as Error)?.message ?? 'inspection failed' });
    }
  });
}
