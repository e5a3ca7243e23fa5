import { parentPort, workerData } from 'node:worker_threads';
import { inspectionAnswer } from './inspect-answer.js';
import type { InspectQuestion } from './inspect-document.js';
import { lowerThreadPriority } from './low-priority-thread.js';
import { createParseCache } from './parse-cache.js';
import { threadStatPath } from '../runtime/thread-cpu-clock.js';

// Entry of an inspect-pool worker thread: one job at a time, answered by id. Loaded only inside
// a worker started by inspect-pool.ts (workerData.tag says so); importing it elsewhere does nothing.

export const INSPECT_WORKER_TAG = 'rsl-inspect-worker';

if (parentPort && (workerData as { tag?: string } | null)?.tag === INSPECT_WORKER_TAG) {
  const port = parentPort;
  lowerThreadPriority();
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
