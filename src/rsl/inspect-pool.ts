import { Worker } from 'node:worker_threads';
import { inspectAnswerText } from './inspect-answer.js';
import { evaluateParsed, type InspectQuestion } from './inspect-document.js';
import { INSPECT_WORKER_TAG } from './inspect-worker.js';
import { siblingModule } from '../runtime/sibling-module.js';
import { startWorkClock, type WorkClock } from '../runtime/thread-cpu-clock.js';

// A small pool of worker threads for the free inspection path, so parsing and evaluating untrusted
// documents never runs on the event loop that answers /healthz, capabilities and paid redemptions.
// Each worker works on one job at a time, with up to `perWorker` sent ahead. Jobs wait in a bounded
// queue; when it is full the caller is told to come back (InspectPoolBusy → 503 + Retry-After). The
// queue is bounded by count and by the documents' total size, so it can be deep for small documents
// without holding much memory: under a burst of small ones, waiting a few milliseconds beats a refusal
// that the client answers by sending the same request again at once. A job that outlives its deadline
// (a parser stuck somewhere the in-loop budget does not reach) has its worker terminated and
// replaced, and is answered as PARSE_TIME_LIMIT: no valid document, never a permission. The deadline
// counts the worker thread's CPU time from when it took the job up, not wall time: the workers run at
// the lowest priority, so on a busy machine a 244-byte document waited seconds for a core and was
// answered as over the deadline (docs/decisions.md, "A busy machine").

export interface InspectPoolOptions {
  size: number;
  /** Jobs allowed to wait for a worker; more are refused at once. */
  maxQueue: number;
  /** Characters of documents allowed to wait, summed: what bounds the queue's memory (a few large
   *  documents fill it, many small ones do not). Default: no bound beyond maxQueue. */
  maxQueueChars?: number;
  /** Hard deadline per job, in milliseconds of the worker's CPU time, well above the parser's own budget. */
  jobTimeoutMs: number;
  /** How a job's work is measured, given where its worker's CPU time is read (thread-cpu-clock.ts;
   *  null where there is none). Default: that CPU time, or wall time without it. Tests pass fake clocks. */
  jobClock?: (workerStatPath: string | null) => WorkClock;
  /** Jobs posted ahead to each worker (default 1), so it never idles while its next job is on the way. */
  perWorker?: number;
  /** Characters of parsed documents each worker keeps to answer the same document again (parse-cache.ts). */
  parseCacheChars?: number;
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
  resolve: (answer: string) => void;
  reject: (e: Error) => void;
}
interface Slot {
  worker: Worker;
  /** Where the worker's CPU time is read (null: nowhere); undefined until the worker says it is ready. */
  statPath: string | null | undefined;
  /** Jobs posted to the worker, in the order it takes them; the first is the one it is working on. */
  jobs: Job[];
  /** The deadline of the first job, started when the worker took it up (once it had started). */
  timer: NodeJS.Timeout | null;
}

export interface InspectPool {
  /** The answer's JSON text (contract/inspect.ts `inspectionAnswer`). */
  inspect(xml: string, question: InspectQuestion): Promise<string>;
  close(): Promise<void>;
}

/** Node 20 does not carry tsx's loader into workers: under tsx the worker registers it, then imports its entry. */
function tsxBoot(entry: URL): URL {
  const boot =
    `const { register } = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); ` +
    `register(); await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

function startWorker(parseCacheChars: number): Worker {
  const entry = siblingModule(import.meta.url, './inspect-worker');
  const worker = new Worker(entry.typescript ? tsxBoot(entry.url) : entry.url, {
    workerData: { tag: INSPECT_WORKER_TAG, parseCacheChars },
  });
  worker.unref();
  return worker;
}

/** procfs counts CPU time in 10 ms ticks: checking a deadline again sooner learns nothing new. */
const MIN_RECHECK_MS = 10;

/** The answer to a job its worker did not finish in time: the document reads as not parsed (PARSE_TIME_LIMIT). */
function timedOutAnswer(job: Job, jobTimeoutMs: number): string {
  return inspectAnswerText(
    job.xml,
    job.question,
    evaluateParsed(job.xml, job.question, {
      ok: false,
      code: 'PARSE_TIME_LIMIT',
      message: `inspection used more than ${jobTimeoutMs} ms of CPU time`,
      problems: [],
    }),
  );
}

/**
 * (Re)starts the deadline of the slot's first job, once its worker is up: starting a worker (loading its
 * modules) is not the job's work. When the timer fires the worker's clock is read: a worker that has not
 * yet worked the whole deadline (it waited for a core, or its answer waits behind a busy event loop) is
 * given the rest; the job of one that has is `late`.
 */
function restartDeadline(
  slot: Slot,
  timeoutMs: number,
  jobClock: (workerStatPath: string | null) => WorkClock,
  late: (job: Job) => void,
): void {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  const job = slot.jobs[0];
  if (!job || slot.statPath === undefined) return;
  const clock = jobClock(slot.statPath);
  const check = () => {
    const left = timeoutMs - clock.elapsed();
    if (left > 0) slot.timer = setTimeout(check, Math.max(left, MIN_RECHECK_MS));
    else late(job);
  };
  slot.timer = setTimeout(check, timeoutMs);
}

/** A slot of a closing pool: its jobs are refused and its worker stops. */
function closeSlot(slot: Slot): Promise<number> {
  if (slot.timer) clearTimeout(slot.timer);
  for (const job of slot.jobs.splice(0)) job.reject(new Error('inspection pool is closed'));
  return slot.worker.terminate();
}

export function createInspectPool(opts: InspectPoolOptions): InspectPool {
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  let queuedChars = 0;
  const perWorker = Math.max(1, opts.perWorker ?? 1);
  const jobClock = opts.jobClock ?? startWorkClock;

  const spawn = (): Slot => {
    const worker = startWorker(opts.parseCacheChars ?? 0);
    const slot: Slot = { worker, statPath: undefined, jobs: [], timer: null };
    worker.on('message', (m: { id: number; answer?: string; error?: string; ready?: string | null }) => {
      if (m.ready !== undefined) {
        slot.statPath = m.ready;
        return startDeadline(slot);
      }
      const job = slot.jobs[0];
      if (!job || job.id !== m.id) return;
      slot.jobs.shift();
      startDeadline(slot);
      if (m.answer !== undefined) job.resolve(m.answer);
      else job.reject(new Error(m.error ?? 'inspection failed'));
      pump();
    });
    worker.on('error', (err) => replace(slot, err));
    worker.on('exit', () => {
      if (!closed && slots.includes(slot)) replace(slot, new Error('inspection worker exited'));
    });
    return slot;
  };

  // The worker takes its jobs in order, so when one is answered it starts the next: that is when the
  // next one's deadline starts.
  const startDeadline = (slot: Slot) =>
    restartDeadline(slot, opts.jobTimeoutMs, jobClock, (job) => {
      // Answer from the main thread (evaluating a failed parse is trivial), then recycle the worker.
      const timedOut = timedOutAnswer(job, opts.jobTimeoutMs);
      slot.jobs.shift();
      replace(slot);
      job.resolve(timedOut);
    });

  /** Stops a worker and starts another. Its first job fails with `err`; the jobs behind it wait again,
   *  first in line. */
  const replace = (slot: Slot, err?: Error) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const [current, ...behind] = slot.jobs.splice(0);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
    if (current && err) current.reject(err);
    else if (current) behind.unshift(current);
    for (const job of behind) queuedChars += job.xml.length;
    queue.unshift(...behind);
    if (!closed) pump();
  };

  const pump = () => {
    // Workers start when there is work for them, up to `size`: a service nobody asks to inspect holds no
    // thread (an idle isolate is ~10 MB of RSS: docs/decisions.md, "SQLite, the embedded engine").
    const room = slots.reduce((n, slot) => n + Math.max(0, perWorker - slot.jobs.length), 0);
    for (let more = queue.length - room; more > 0 && slots.length < opts.size; more -= perWorker) slots.push(spawn());
    for (const slot of slots) {
      while (slot.jobs.length < perWorker && queue.length > 0) {
        const job = queue.shift()!;
        queuedChars -= job.xml.length;
        slot.jobs.push(job);
        if (slot.jobs.length === 1) startDeadline(slot);
        slot.worker.postMessage({ id: job.id, xml: job.xml, question: job.question });
      }
    }
  };

  return {
    inspect(xml, question) {
      if (closed) return Promise.reject(new Error('inspection pool is closed'));
      const full =
        queue.length >= opts.maxQueue ||
        (queue.length > 0 && queuedChars + xml.length > (opts.maxQueueChars ?? Number.POSITIVE_INFINITY));
      if (full) return Promise.reject(new InspectPoolBusy());
      return new Promise<string>((resolve, reject) => {
        queuedChars += xml.length;
        queue.push({ id: nextId++, xml, question, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      queuedChars = 0;
      for (const job of queue.splice(0)) job.reject(new Error('inspection pool is closed'));
      await Promise.all(slots.splice(0).map(closeSlot));
    },
  };
}
