import test from 'ava';
import { terminalProgress, type ProgressClock } from '../../ops/progress.js';

// Progress on long work: on a terminal, a line with the step and the seconds so far, redrawn at each tick
// and erased when the work ends or other output comes; anywhere else, not one byte.

function fakeClock() {
  let now = 0;
  const ticks = new Set<() => void>();
  const clock: ProgressClock = {
    now: () => now,
    every(_ms, tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const tick of ticks) tick();
    },
    running: () => ticks.size,
  };
}

test('on a terminal: the step and its seconds, redrawn in place, erased at the end', async (t) => {
  const written: string[] = [];
  const c = fakeClock();
  const progress = terminalProgress({ isTTY: true, write: (s: string) => written.push(s) }, c.clock);
  let finish!: (v: string) => void;
  const result = progress.during('replaying 100000 events', new Promise<string>((r) => (finish = r)));
  c.advance(1500);
  progress.interrupt(); // another line is printed here
  c.advance(1500);
  finish('done');
  t.is(await result, 'done');
  t.is(c.running(), 0, 'the ticker stopped');
  t.regex(written[0]!, /^\r\x1b\[2K. replaying 100000 events … 0\.0 s$/);
  t.regex(written[1]!, /replaying 100000 events … 1\.5 s$/);
  t.is(written[2], '\r\x1b[2K', 'erased before the other output');
  t.regex(written[3]!, /… 3\.0 s$/);
  t.is(written.at(-1), '\r\x1b[2K', 'nothing is left on the line');
  t.is(written.length, 5);
});

test('a failing step still stops its ticker and erases its line', async (t) => {
  const written: string[] = [];
  const c = fakeClock();
  const progress = terminalProgress({ isTTY: true, write: (s: string) => written.push(s) }, c.clock);
  await t.throwsAsync(progress.during('exporting', Promise.reject(new Error('disk full'))), { message: 'disk full' });
  t.is(c.running(), 0);
  t.is(written.at(-1), '\r\x1b[2K');
});

test('not a terminal: nothing is written, the work resolves as it would', async (t) => {
  const written: string[] = [];
  const c = fakeClock();
  const progress = terminalProgress({ isTTY: false, write: (s: string) => written.push(s) }, c.clock);
  const result = progress.during('starting', Promise.resolve(42));
  c.advance(5000);
  progress.interrupt();
  t.is(await result, 42);
  t.deepEqual(written, []);
  t.is(c.running(), 0);
});

test('on a terminal, counted work shows how much is done at each redraw, grouped, with its total', async (t) => {
  const written: string[] = [];
  const c = fakeClock();
  const progress = terminalProgress({ isTTY: true, write: (s: string) => written.push(s) }, c.clock);
  t.true(progress.shown);
  let done = 0;
  let finish!: () => void;
  const work = progress.during('exporting to nov.csv', new Promise<void>((r) => (finish = r)), () => ({
    unit: 'purchases',
    done,
    total: 8001,
  }));
  done = 4000;
  c.advance(1000);
  done = 8001;
  c.advance(1000);
  finish();
  await work;
  t.regex(written[0]!, /^\r\x1b\[2K. exporting to nov\.csv … purchases 0\/8,001 … 0\.0 s$/);
  t.regex(written[1]!, / exporting to nov\.csv … purchases 4,000\/8,001 … 1\.0 s$/);
  t.regex(written[2]!, / purchases 8,001\/8,001 … 2\.0 s$/);
  t.is(written.at(-1), '\r\x1b[2K');

  const untotalled: string[] = [];
  const other = terminalProgress({ isTTY: true, write: (s: string) => untotalled.push(s) }, fakeClock().clock);
  await other.during('replaying', Promise.resolve(), () => ({ unit: 'rows', done: 12345 }));
  t.regex(untotalled[0]!, / replaying … rows 12,345 … 0\.0 s$/, 'no total: the count alone');
});

test('not a terminal, counted work writes nothing and its count is never read', async (t) => {
  const written: string[] = [];
  const c = fakeClock();
  const progress = terminalProgress({ isTTY: undefined, write: (s: string) => written.push(s) }, c.clock);
  t.false(progress.shown, 'callers can skip what only feeds the line (a total)');
  let reads = 0;
  const result = progress.during('exporting', Promise.resolve('ok'), () => {
    reads++;
    return { unit: 'rows', done: 1, total: 2 };
  });
  c.advance(5000);
  t.is(await result, 'ok');
  t.deepEqual(written, []);
  t.is(reads, 0);
});
