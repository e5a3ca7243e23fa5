import { readFileSync, readlinkSync } from 'node:fs';

// The CPU time one thread has used, for the limits that guard against costly publisher input (the
// inspect pool's deadline, the XML parse clock, the HTML scan budget). They stand for "this input costs
// too much work", and a thread's CPU time measures that on a busy machine too, where wall time also
// counts every moment the thread waited for a core (docs/decisions.md, "A busy machine"). Node 20 has
// no per-thread CPU clock, so on Linux it is read from procfs (proc(5): utime and stime of
// /proc/<pid>/task/<tid>/stat, in clock ticks); elsewhere there is none and callers keep wall time.

/** Linux's USER_HZ: procfs reports CPU time in these ticks, 100 a second on every mainstream build. */
const TICKS_PER_SECOND = 100;

/** A thread's CPU time in milliseconds, read from its stat file; null when it cannot be read. */
export function cpuMillisAt(statPath: string): number | null {
  try {
    const stat = readFileSync(statPath, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** Where the calling thread's CPU time can be read, from this thread or another; null off Linux. */
export function threadStatPath(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    // "<pid>/task/<tid>": stable for the thread's life, unlike /proc/thread-self, which names the reader.
    const path = `/proc/${readlinkSync('/proc/thread-self')}/stat`;
    return cpuMillisAt(path) === null ? null : path;
  } catch {
    return null;
  }
}

export interface WorkClock {
  /** Milliseconds of work since the clock was started: this thread's CPU time, or wall time without one. */
  elapsed(): number;
}

/**
 * A clock of one thread's CPU time from now: the calling thread's by default, another's from its
 * `threadStatPath()`. Wall time where the platform offers no thread clock.
 */
export function startWorkClock(statPath: string | null = ownStatPath()): WorkClock {
  const cpuStart = statPath === null ? null : cpuMillisAt(statPath);
  if (statPath === null || cpuStart === null) {
    const started = performance.now();
    return { elapsed: () => performance.now() - started };
  }
  // A stat file that can no longer be read (the thread is gone) reads as over any budget.
  return { elapsed: () => (cpuMillisAt(statPath) ?? Number.POSITIVE_INFINITY) - cpuStart };
}

let ownPath: string | null | undefined;
/** Each thread has its own module instance, so this is per thread. */
function ownStatPath(): string | null {
  if (ownPath === undefined) ownPath = threadStatPath();
  return ownPath;
}
