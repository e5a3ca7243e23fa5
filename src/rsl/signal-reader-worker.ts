import { parentPort, workerData } from 'node:worker_threads';
import { readSignals } from '../signals/read-signals.js';
import { lowerThreadPriority } from './low-priority-thread.js';
import type { SignalSources } from '../signals/signal-sources.js';

// Entry of a signal-reader-pool worker thread: one reading at a time, answered by id. Loaded only inside a
// worker started by signal-reader-pool.ts (workerData.tag says so); importing it elsewhere does nothing.
// The readers keep each document's parsed form and compiled patterns (src/signals/signal-work.ts) here,
// in the thread that reads large documents.

export const SIGNAL_READER_WORKER_TAG = 'signal-reader-worker';

if (parentPort && (workerData as { tag?: string } | null)?.tag === SIGNAL_READER_WORKER_TAG) {
  const port = parentPort;
  lowerThreadPriority();
  port.on('message', (job: { id: number; sources: SignalSources }) => {
    // readSignals never throws (a failing reader is a silent observation).
    port.postMessage({ id: job.id, observations: readSignals(job.sources) });
  });
}
