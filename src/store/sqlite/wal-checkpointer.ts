import { Worker } from 'node:worker_threads';
import type { DatabaseSyncInstance as DatabaseSync } from '@photostructure/sqlite';
import type { Logger } from '../../runtime/log.js';

// The WAL's checkpoints off the service's event loop (docs/decisions.md, "A quote on SQLite"). SQLite's automatic
// checkpoint runs inside the COMMIT that crosses 1,000 pages of WAL: it copies the pages into the database file
// and, at `synchronous = NORMAL`, waits for the disk twice, on the thread that committed. On this machine a
// commit's median was 32 µs and its p99 3.5–7.5 ms, its worst 28–141 ms: every ~250th quote stalled the loop and
// every request waiting on it. Here the main connection never checkpoints by itself; a worker thread with a
// connection of its own runs PASSIVE checkpoints, which take no lock a writer needs, so appends go on meanwhile.
//
// PASSIVE copies only the frames written before it started, and the WAL is rewound (written again from its start)
// only by a writer that finds every frame copied. Under appends without a pause that never happens, so the WAL
// grows; past `highWaterPages` the appends are held (they wait, as for a read-model transaction; the loop goes on)
// while the worker checkpoints once more with no writer beside it (most frames are already copied: it is the last
// ones and the flush), and the next append rewinds the file. `journal_size_limit` gives the disk back at that rewind.
//
// The worker is plain JavaScript evaluated from a string: it needs SQLite's binding and nothing of this tree, so
// no loader (tsx) and no module of ours is loaded into it. It imports only dynamically: an evaluated worker is a
// CommonJS script, or an ES module when the process was started with --input-type=module (the flag is
// inherited), and `import()` is the one form both read.

const WORKER = `
import('node:worker_threads').then(async ({ workerData, parentPort }) => {
  const { DatabaseSync } = await import(workerData.sqlite);
  const db = new DatabaseSync(workerData.file);
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const step = (asked) => {
    const r = checkpoint.get();
    parentPort.postMessage({ busy: Number(r.busy), log: Number(r.log), checkpointed: Number(r.checkpointed), asked });
  };
  const timer = setInterval(() => step(false), workerData.everyMs);
  parentPort.on('message', (m) => {
    if (m === 'now') step(true);
    else if (m === 'close') {
      clearInterval(timer);
      db.close();
      parentPort.close();
    }
  });
  parentPort.postMessage('ready');
});
`;

/** What one PASSIVE checkpoint reported: WAL frames in all, and of them copied into the database file. */
export interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
  /** True for the one run with the appends held, past the high-water mark. */
  appendsHeld: boolean;
}

export interface WalCheckpointerOptions {
  /** Between two checkpoints of the worker. */
  everyMs?: number;
  /** WAL pages past which the main thread checkpoints once itself, so the file is rewound even under load. */
  highWaterPages?: number;
  log?: Logger;
  /** Each checkpoint's report (tests, metrics). */
  onCheckpoint?: (report: CheckpointReport) => void;
}

export interface WalCheckpointer {
  /** A checkpoint of the worker now, answered by its report. */
  checkpointNow(): Promise<CheckpointReport>;
  /** Stops the worker and closes its connection (before the main connection closes, and the lock goes). */
  close(): Promise<void>;
}

const DEFAULT_EVERY_MS = 200;
// 64k pages of 4 KiB: 256 MiB of WAL, ~16,000 quotes written without a pause of 200 ms. A hold makes the appends
// of its moment wait for a flush of the disk, so it is made rare: at 1,400 quotes/s without a pause, one in ~12 s.
const DEFAULT_HIGH_WATER_PAGES = 65_536;
// What the WAL file is cut back to when it is rewound: the disk is given back, the usual flow still fits.
const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;

export function walCheckpointer(
  db: DatabaseSync,
  file: string,
  hold: <T>(work: () => Promise<T>) => Promise<T>,
  opts: WalCheckpointerOptions = {},
): Promise<WalCheckpointer> {
  const highWater = opts.highWaterPages ?? DEFAULT_HIGH_WATER_PAGES;
  db.exec('PRAGMA wal_autocheckpoint = 0');
  db.exec(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  const worker = new Worker(WORKER, {
    eval: true,
    // It runs one statement on a timer: a small heap is all it needs (its memory is the service's RSS).
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16, stackSizeMb: 1 },
    workerData: {
      sqlite: import.meta.resolve('@photostructure/sqlite'),
      file,
      everyMs: opts.everyMs ?? DEFAULT_EVERY_MS,
    },
  });
  const waiting: { done: (r: CheckpointReport) => void; failed: (err: Error) => void }[] = [];
  let closing = false;
  let exited = false;
  // Nobody waits for a thread that is gone (appends held for its answer least of all).
  worker.once('exit', () => {
    exited = true;
    for (const w of waiting.splice(0)) w.failed(new Error('WAL checkpoint thread exited'));
  });

  // Past the high-water mark: the appends held (they wait, the loop does not) while the worker copies the last
  // frames, so it finishes with every frame copied and the next append rewinds the WAL.
  let holding = false;
  const checkpointHeld = async (ask: () => Promise<CheckpointReport>) => {
    if (holding || closing) return;
    holding = true;
    try {
      const r = await hold(ask);
      opts.onCheckpoint?.({ ...r, appendsHeld: true });
    } catch (err) {
      opts.log?.warn({ err: { message: (err as Error).message } }, 'WAL checkpoint with the appends held failed');
    } finally {
      holding = false;
    }
  };

  // If the worker is gone, SQLite's own checkpoint at commit comes back: a WAL must never grow without end.
  const fallBack = (why: string) => {
    if (closing) return;
    opts.log?.error({ why }, 'WAL checkpoint thread gone: checkpoints back on the main thread');
    if (db.isOpen) db.exec('PRAGMA wal_autocheckpoint = 1000');
  };

  const checkpointer: WalCheckpointer = {
    checkpointNow() {
      if (exited) return Promise.reject(new Error('WAL checkpoint thread exited'));
      return new Promise((done, failed) => {
        waiting.push({ done, failed });
        worker.ref();
        worker.postMessage('now');
      });
    },
    async close() {
      closing = true;
      if (exited) return;
      const gone = new Promise<void>((done) => worker.once('exit', () => done()));
      worker.ref();
      worker.postMessage('close');
      await gone;
    },
  };

  return new Promise<WalCheckpointer>((resolve, reject) => {
    const failStart = (err: Error) => reject(new Error(`WAL checkpoint thread did not start: ${err.message}`));
    worker.once('error', failStart);
    worker.on('message', (m: 'ready' | (Omit<CheckpointReport, 'appendsHeld'> & { asked: boolean })) => {
      if (m === 'ready') {
        // Held by the process only while someone waits on it: its timer alone never keeps the service running.
        worker.unref();
        worker.off('error', failStart);
        worker.on('error', (err) => fallBack(err.message));
        worker.on('exit', (code) => fallBack(`exit ${code}`));
        resolve(checkpointer);
        return;
      }
      const report = { busy: m.busy, log: m.log, checkpointed: m.checkpointed, appendsHeld: false };
      if (!holding) opts.onCheckpoint?.(report);
      const asker = m.asked ? waiting.shift() : undefined;
      if (asker) {
        if (waiting.length === 0) worker.unref();
        asker.done(report);
      }
      if (report.log > highWater && !holding) void checkpointHeld(() => checkpointer.checkpointNow());
    });
  });
}
