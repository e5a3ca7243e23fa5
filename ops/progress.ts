// Long work says it is still working, on a terminal only (docs/decisions.md, "Progress on long work"):
// while a promise is pending, one line on stderr shows what is being done, how much of it is done when the
// work counts (`rows 4,000/8,001`), and the seconds so far, redrawn in place and erased when the work ends.
// When stderr is not a terminal (a pipe, a file, CI) nothing is written, so logs and captured output stay
// exactly what they were.
//
//   const progress = terminalProgress();
//   const world = await progress.during('starting the devnet, publishers and the service', startDemoWorld());
//   await progress.during('exporting to nov.csv', exported, () => ({ unit: 'rows', done: written, total }));
//   say('…');                  // say() calls progress.interrupt() first: a printed line is never overdrawn

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

/** How much of a step is done, read at each redraw: `done` of `total` (when known) `unit`. */
export interface ProgressCount {
  unit: string;
  done: number;
  total?: number;
}

export interface Progress {
  /** Whether anything is drawn (stderr is a terminal): work that only feeds the line can be skipped. */
  readonly shown: boolean;
  /**
   * Resolves as `work` does, showing `label`, the count (when `count` is given) and the time so far on a
   * terminal meanwhile.
   */
  during<T>(label: string, work: Promise<T>, count?: () => ProgressCount): Promise<T>;
  /** Erases the progress line before other output; it is drawn again at the next tick. */
  interrupt(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const ERASE = '\r\x1b[2K';

const wallClock: ProgressClock = {
  now: () => performance.now(),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export function terminalProgress(
  stream: ProgressStream = process.stderr,
  clock: ProgressClock = wallClock,
  intervalMs = 200,
): Progress {
  if (!stream.isTTY) return { shown: false, during: (_label, work) => work, interrupt() {} };
  let drawn = false;
  const interrupt = () => {
    if (drawn) stream.write(ERASE);
    drawn = false;
  };
  return {
    shown: true,
    interrupt,
    async during(label, work, count) {
      const started = clock.now();
      let frame = 0;
      const draw = () => {
        const seconds = ((clock.now() - started) / 1000).toFixed(1);
        const counted = count === undefined ? '' : ` … ${counting(count())}`;
        stream.write(`${ERASE}${FRAMES[frame++ % FRAMES.length]} ${label}${counted} … ${seconds} s`);
        drawn = true;
      };
      draw();
      const stop = clock.every(intervalMs, draw);
      try {
        return await work;
      } finally {
        stop();
        interrupt();
      }
    },
  };
}

const grouped = (n: number): string => n.toLocaleString('en-US');

function counting(c: ProgressCount): string {
  return `${c.unit} ${grouped(c.done)}${c.total === undefined ? '' : `/${grouped(c.total)}`}`;
}
