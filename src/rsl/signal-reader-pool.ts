import { Worker } from 'node:worker_threads';
import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { sha256OfText, silentObservation } from '../signals/observation.js';
import { readSignals } from '../signals/read-signals.js';
import type { SignalSources } from '../signals/signal-sources.js';
import { siblingModule } from '../runtime/sibling-module.js';
import { SIGNAL_READER_WORKER_TAG } from './signal-reader-worker.js';

// Where the AI-use signal readers run (docs/decisions.md "Signal readers under one work budget"). Their
// matching is bounded by a count (src/signals/signal-work.ts), but a large robots.txt or tdmrep.json still
// costs tens of milliseconds to group, parse and match within that count: such a reading runs in a worker
// thread, as the free inspection's parsing does (inspect-pool.ts), so the event loop that answers /healthz
// and paid redemptions never waits on it. Small documents, the usual case, are read in place: a thread
// round trip would cost more than the reading. Workers start on the first large reading, one job each at
// a time; jobs wait in a bounded queue. A reading that cannot be done off the loop (queue full, worker
// stopped past its deadline or failed) reads robots.txt and tdmrep.json as not determinable, with a code,
// never as more than their absence; the page's own signals are still read.

/** Characters of robots.txt and tdmrep.json together above which a reading leaves the event loop. */
export const OFF_LOOP_CHARS = 32 * 1024;

export type SignalReader = (sources: SignalSources) => Promise<SignalObservation[]>;

export interface SignalReaderPool {
  read: SignalReader;
  close(): Promise<void>;
}

export interface SignalReaderPoolOptions {
  size: number;
  maxQueue: number;
  /** Backstop per job, far above what the counted budget lets a reading cost. */
  jobTimeoutMs: number;
}

export const DEFAULT_SIGNAL_READER_POOL: SignalReaderPoolOptions = { size: 1, maxQueue: 64, jobTimeoutMs: 10_000 };

interface Job {
  id: number;
  sources: SignalSources;
  resolve: (o: SignalObservation[]) => void;
}
interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const textOf = (s: SignalSources['robots'] | SignalSources['tdmrep']) => (s && 'text' in s ? s.text.length : 0);

/** Whether a reading is large enough to leave the event loop. */
export function readsOffLoop(sources: SignalSources): boolean {
  return textOf(sources.robots) + textOf(sources.tdmrep) > OFF_LOOP_CHARS;
}

/** What a worker needs: the page's metas already scanned, not its HTML (the readers use only metas and headers). */
function jobSources(s: SignalSources): SignalSources {
  if (!s.page) return s;
  const { html: _html, text: _text, metas, ...page } = s.page;
  return { ...s, page: { ...page, text: '', html: null, metas: metas ?? [] } };
}

/** The reading when robots.txt and tdmrep.json could not be read off the loop: the page alone, and why. */
export function notReadOffLoop(sources: SignalSources, code: string, why: string): SignalObservation[] {
  const rule = `${code}: ${why}; not determinable, so nothing is read from it (as if absent)`;
  const out: SignalObservation[] = [];
  const { tdmrep, robots } = sources;
  if (tdmrep) {
    const sha256 = 'sha256' in tdmrep ? tdmrep.sha256 : sha256OfText('');
    out.push(
      silentObservation({ standard: 'tdmrep', channel: 'well-known', url: tdmrep.url, sha256, statement: '' }, rule),
    );
  }
  out.push(...readSignals({ resource: sources.resource, ...(sources.page ? { page: sources.page } : {}) }));
  if (robots && robots.status >= 200 && robots.status <= 299)
    for (const standard of ['aipref', 'content-signals'] as const)
      out.push(
        silentObservation({ standard, channel: 'robots', url: robots.url, sha256: robots.sha256, statement: '' }, rule),
      );
  return out;
}

function startWorker(): Worker {
  const entry = siblingModule(import.meta.url, './signal-reader-worker');
  const boot = entry.typescript
    ? new URL(
        `data:text/javascript,${encodeURIComponent(
          `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); ` +
            `register(); await import(${JSON.stringify(entry.url.href)});`,
        )}`,
      )
    : entry.url;
  const worker = new Worker(boot, { workerData: { tag: SIGNAL_READER_WORKER_TAG } });
  worker.unref();
  return worker;
}

export function createSignalReaderPool(opts: SignalReaderPoolOptions = DEFAULT_SIGNAL_READER_POOL): SignalReaderPool {
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const finish = (slot: Slot, answer: (job: Job) => SignalObservation[]) => {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    if (job) job.resolve(answer(job));
  };
  const drop = (slot: Slot, code: string, why: string) => {
    finish(slot, (job) => notReadOffLoop(job.sources, code, why));
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
    pump();
  };
  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(), job: null, timer: null };
    slot.worker.on('message', (m: { id: number; observations: SignalObservation[] }) => {
      if (slot.job?.id !== m.id) return;
      finish(slot, () => m.observations);
      pump();
    });
    slot.worker.on('error', (e) =>
      drop(slot, 'signal-reader-failed', `the reader stopped (${e.message.slice(0, 200)})`),
    );
    slot.worker.on('exit', () => {
      if (!closed && slots.includes(slot)) drop(slot, 'signal-reader-failed', 'the reader stopped');
    });
    slots.push(slot);
    return slot;
  };
  const pump = () => {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.job === null) ?? (slots.length < opts.size ? spawn() : undefined);
      if (!slot) return;
      const job = queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(
        () => drop(slot, 'signal-reading-time-limit', `the reading took longer than ${opts.jobTimeoutMs} ms`),
        opts.jobTimeoutMs,
      );
      slot.worker.postMessage({ id: job.id, sources: jobSources(job.sources) });
    }
  };

  const offLoop = (sources: SignalSources) =>
    new Promise<SignalObservation[]>((resolve) => {
      if (closed || queue.length >= opts.maxQueue) {
        resolve(notReadOffLoop(sources, 'signal-readers-busy', `${queue.length} readings already wait`));
        return;
      }
      queue.push({ id: nextId++, sources, resolve });
      pump();
    });

  return {
    read: (sources) => (readsOffLoop(sources) ? offLoop(sources) : Promise.resolve(readSignals(sources))),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.resolve(notReadOffLoop(job.sources, 'signal-readers-busy', 'closing'));
      await Promise.all(
        slots.splice(0).map((slot) => {
          finish(slot, (job) => notReadOffLoop(job.sources, 'signal-readers-busy', 'closing'));
          return slot.worker.terminate();
        }),
      );
    },
  };
}
