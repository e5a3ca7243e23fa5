import test from 'ava';
import { Worker } from 'node:worker_threads';
import { startWorkClock, threadStatPath } from '../../src/runtime/thread-cpu-clock.js';

// The limits on costly publisher input count a thread's CPU time (docs/decisions.md, "A busy machine"):
// work moves the clock, waiting does not, and another thread's clock is read from outside it.

// Serial: each test reads this thread's CPU time, which the other's work would move.
const onLinux = process.platform === 'linux' ? test.serial : test.serial.skip;

/** Spins until `clock` shows `ms` of work; bounded in iterations, so a clock that never moves fails. */
function work(clock: { elapsed(): number }, ms: number): boolean {
  let x = 0;
  for (let round = 0; round < 1e5; round++) {
    for (let i = 0; i < 1e5; i++) x = (x * 31 + i) | 0;
    if (clock.elapsed() >= ms) return x !== 0.5;
  }
  return false;
}

onLinux('work moves the thread clock, waiting does not', async (t) => {
  const clock = startWorkClock();
  t.true(work(clock, 50), 'the clock moved with the work');
  const before = clock.elapsed();
  const waited = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const wall = performance.now() - waited;
  // An idle event loop does next to no work while it waits: nothing near the wall time it waited.
  t.true(clock.elapsed() - before < wall / 2, `${clock.elapsed() - before} ms of CPU in ${wall} ms waited`);
});

onLinux("another thread's work is read from outside it, and is not this thread's", async (t) => {
  const own = threadStatPath();
  t.truthy(own);
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const fs = require('node:fs');
     const path = '/proc/' + fs.readlinkSync('/proc/thread-self') + '/stat';
     const cpuMs = () => {
       const stat = fs.readFileSync(path, 'latin1');
       const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
       return (Number(fields[11]) + Number(fields[12])) * 10;
     };
     parentPort.postMessage(path);
     parentPort.once('message', (ms) => {
       const start = cpuMs();
       let x = 0;
       while (cpuMs() - start < ms) for (let i = 0; i < 1e5; i++) x = (x * 31 + i) | 0;
       parentPort.postMessage(x);
     });`,
    { eval: true },
  );
  try {
    const path = await new Promise<string>((resolve) => worker.once('message', resolve));
    t.not(path, own);
    const workerClock = startWorkClock(path);
    const mine = startWorkClock();
    worker.postMessage(200);
    await new Promise((resolve) => worker.once('message', resolve));
    t.true(workerClock.elapsed() >= 200, `the worker's clock: ${workerClock.elapsed()} ms`);
    t.true(mine.elapsed() < workerClock.elapsed(), `this thread waited: ${mine.elapsed()} ms`);
  } finally {
    await worker.terminate();
  }
});
