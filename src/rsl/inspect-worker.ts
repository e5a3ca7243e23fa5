import { parentPort, workerData } from 'node:worker_threads';
import { inspectDocument, type InspectQuestion } from './inspect-document.js';

// Entry of an inspect-pool worker thread: one job at a time, answered by id. Loaded only inside
// a worker started by inspect-pool.ts (workerData.tag says so); importing it elsewhere does nothing.

export const INSPECT_WORKER_TAG = 'rsl-inspect-worker';

if (parentPort && (workerData as { tag?: string } | null)?.tag === INSPECT_WORKER_TAG) {
  const port = parentPort;
  port.on('message', (job: { id: number; xml: string; question: InspectQuestion }) => {
    try {
      port.postMessage({ id: job.id, outcome: inspectDocument(job.xml, job.question) });
    } catch (err) {
      port.postMessage({ id: job.id, error: (err as Error)?.message ?? 'inspection failed' });
    }
  });
}
