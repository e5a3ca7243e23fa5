import { Worker } from 'node:worker_threads';
import { evaluateParsed, type InspectOutcome, type InspectQuestion } from './inspect-document.js';
import { INSPECT_WORKER_TAG } from './inspect-worker.js';
import { siblingModule } from '../sibling-module.js';

// A small pool of worker threads for the free inspection path, so parsing and evaluating untrusted
// documents never runs on the event loop that answers /healthz, capabilities and paid redemptions.
// Each worker takes one job at a time. Jobs wait in a bounded queue; when it is full the caller is
// told to come back (InspectPoolBusy → 503 + Retry-After). The queue is bounded by count and by the
// documents' total size, so it can be deep for small documents without holding much memory: under a
// burst of small ones, waiting a few milliseconds beats a refusal that the client answers by sending
// the same request again at once. A job that outlives its deadline (a
// parser stuck somewhere the in-loop budget does not reach) has its worker terminated and
// replaced, and is answered as PARSE_TIME_LIMIT: no valid document, never a permission.

export interface InspectPoolOptions {
  size: number;
  /** Jobs allowed to wait for a worker; more are refused at once. */
  maxQueue: number;
  /** Characters of documents allowed to wait, summed: what bounds the queue's memory (a few large
   *  documents fill it, many small ones do not). Default: no bound beyond maxQueue. */
  maxQueueChars?: number;
  /** Hard deadline per job, well above the parser's own time budget. */
  jobTimeoutMs: number;
}

export class InspectPoolBusy extends Error {
  constructor() {
    super('inspection workers are busy');
  }
}

interface Job {
  id: number;
  xml: string;
  question: InspectQuestion;
  resolve: (o: InspectOutcome) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

export interface InspectPool {
  inspect(xml: string, question: InspectQuestion): Promise<InspectOutcome>;
  close(): Promise<void>;
}

/** Node 20 does not carry tsx's loader into workers: under tsx the worker registers it, then imports its entry. */
function tsxBoot(entry: URL): URL {
  const boot =
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); ` +
    `register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

export function createInspectPool(opts: InspectPoolOptions): InspectPool {
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  let queuedChars = 0;

  const spawn = (): Slot => {
    const entry = siblingModule(import.meta.url, './inspect-worker');
    const worker = new Worker(entry.typescript ? tsxBoot(entry.url) : entry.url, {
      workerData: { tag: INSPECT_WORKER_TAG },
    });
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null };
    worker.on('message', (m: { id: number; outcome?: InspectOutcome; error?: string }) => {
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      finish(slot);
      if (m.outcome) job.resolve(m.outcome);
      else job.reject(new Error(m.error ?? 'inspection failed'));
      pump();
    });
    worker.on('error', (err) => replace(slot, err));
    worker.on('exit', () => {
      if (!closed && slots.includes(slot)) replace(slot, new Error('inspection worker exited'));
    });
    return slot;
  };

  const finish = (slot: Slot) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  };

  const replace = (slot: Slot, err: Error) => {
    const job = slot.job;
    finish(slot);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
    if (job) job.reject(err);
    if (!closed) {
      slots.push(spawn());
      pump();
    }
  };

  const pump = () => {
    for (const slot of slots) {
      if (slot.job || queue.length === 0) continue;
      const job = queue.shift()!;
      queuedChars -= job.xml.length;
      slot.job = job;
      slot.timer = setTimeout(() => {
        // Answer from the main thread (evaluating a failed parse is trivial), then recycle the worker.
        const timedOut = evaluateParsed(job.xml, job.question, {
          ok: false,
          code: 'PARSE_TIME_LIMIT',
          message: `inspection took longer than ${opts.jobTimeoutMs} ms`,
          problems: [],
        });
        slot.job = null;
        replace(slot, new Error('unreachable'));
        job.resolve(timedOut);
      }, opts.jobTimeoutMs);
      slot.worker.postMessage({ id: job.id, xml: job.xml, question: job.question });
    }
  };

  for (let i = 0; i < opts.size; i++) slots.push(spawn());

  return {
    inspect(xml, question) {
      if (closed) return Promise.reject(new Error('inspection pool is closed'));
      const full =
        queue.length >= opts.maxQueue ||
        (queue.length > 0 && queuedChars + xml.length > (opts.maxQueueChars ?? Number.POSITIVE_INFINITY));
      if (full) return Promise.reject(new InspectPoolBusy());
      return new Promise<InspectOutcome>((resolve, reject) => {
        queuedChars += xml.length;
        queue.push({ id: nextId++, xml, question, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      queuedChars = 0;
      for (const job of queue.splice(0)) job.reject(new Error('inspection pool is closed'));
      await Promise.all(
        slots.splice(0).map((s) => {
          finish(s);
          return s.worker.terminate();
        }),
      );
    },
  };
}
