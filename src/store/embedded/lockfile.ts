import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StoreLocked } from '../port.js';

// PGlite has no cross-process guard: a second PGlite.create() on an open data directory succeeds
// and the two instances corrupt each other (infra.md §3). This lockfile is that guard.
//
// The lockfile holds the owner's pid. A lock whose pid is alive refuses the open (StoreLocked); a
// lock left by a dead process is taken over. Take-over goes through a short-lived second file
// created with O_EXCL, so two processes that both find the same stale lock cannot both win:
// the loser retries and then finds the winner's live pid.

export const LOCKFILE_NAME = '.rights-store.lock';
const TAKEOVER_SUFFIX = '.takeover';
const TAKEOVER_ABANDONED_MS = 10_000;

export interface DirectoryLock {
  readonly path: string;
  release(): Promise<void>;
}

export async function lockDirectory(dir: string): Promise<DirectoryLock> {
  const lockPath = path.join(dir, LOCKFILE_NAME);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await createExclusive(lockPath)) return held(lockPath);
    const owner = await readPid(lockPath);
    if (owner === undefined) continue; // vanished or half-written between our create and read: try again
    if (isAlive(owner)) throw lockedBy(dir, lockPath, owner);
    if (await takeOverStale(lockPath, owner)) return held(lockPath);
    await sleep(20 + Math.random() * 30);
  }
  throw new StoreLocked(`could not lock event store directory ${dir}: lockfile ${lockPath} keeps changing owner`);
}

/**
 * The live process holding `dir`'s lock, or undefined: read only, nothing created, so a start can refuse
 * a directory in use before it starts anything (src/service/startup-problems.ts). The lock itself stays the
 * guard: a process that starts between this look and lockDirectory is still refused there.
 */
export async function lockHolder(dir: string): Promise<number | undefined> {
  const owner = await readPid(path.join(dir, LOCKFILE_NAME));
  return owner !== undefined && isAlive(owner) ? owner : undefined;
}

function held(lockPath: string): DirectoryLock {
  return {
    path: lockPath,
    async release() {
      // Only remove our own lock: never one a later owner took over.
      if ((await readPid(lockPath)) === process.pid) await rm(lockPath, { force: true });
    },
  };
}

async function takeOverStale(lockPath: string, stalePid: number): Promise<boolean> {
  const guard = lockPath + TAKEOVER_SUFFIX;
  if (!(await createExclusive(guard))) {
    await clearAbandonedGuard(guard);
    return false;
  }
  try {
    // Re-check under the guard: another process may have taken over already.
    if ((await readPid(lockPath)) !== stalePid) return false;
    await writeFile(lockPath, `${process.pid}\n`);
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

async function clearAbandonedGuard(guard: string): Promise<void> {
  const pid = await readPid(guard);
  const age = await stat(guard).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  if ((pid !== undefined && !isAlive(pid)) || age > TAKEOVER_ABANDONED_MS) await rm(guard, { force: true });
}

async function createExclusive(file: string): Promise<boolean> {
  try {
    await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const pid = Number.parseInt(text ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

function lockedBy(dir: string, lockPath: string, pid: number): StoreLocked {
  const who = pid === process.pid ? 'this process (opened twice)' : `process ${pid}`;
  return new StoreLocked(
    `event store directory ${dir} is in use by ${who}. ` +
      'Stop that process or set DATA_DIR (or EVENT_STORE_URL) to another directory; ' +
      `if no such process exists, delete ${lockPath}.`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
