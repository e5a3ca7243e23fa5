import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { LOCKFILE_NAME, lockDirectory } from '../../src/store/embedded/lockfile.js';
import { StoreLocked } from '../../src/store/port.js';

// The data-directory guard on its own, with real files and real process ids (no PGlite needed).

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout); // that process has exited by now
}

test('lockfile: holds our pid while held and is gone after release', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-lock-'));
  try {
    const lock = await lockDirectory(dir);
    t.is((await readFile(path.join(dir, LOCKFILE_NAME), 'utf8')).trim(), String(process.pid));
    await t.throwsAsync(lockDirectory(dir), { instanceOf: StoreLocked, message: /in use by this process/ });
    await lock.release();
    await t.throwsAsync(readFile(path.join(dir, LOCKFILE_NAME)), { code: 'ENOENT' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('lockfile: many contenders for one stale lock, exactly one takes it over', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-lock-'));
  try {
    const stale = deadPid();
    await writeFile(path.join(dir, LOCKFILE_NAME), `${stale}\n`);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => lockDirectory(dir)));
    const winners = outcomes.filter((o) => o.status === 'fulfilled');
    t.log(`stale pid ${stale}: ${winners.length} of ${outcomes.length} contenders took the lock`);
    t.is(winners.length, 1);
    for (const o of outcomes) if (o.status === 'rejected') t.true(o.reason instanceof StoreLocked);
    t.is((await readFile(path.join(dir, LOCKFILE_NAME), 'utf8')).trim(), String(process.pid));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('lockfile: release never removes a lock another owner holds', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-lock-'));
  try {
    const lock = await lockDirectory(dir);
    await writeFile(path.join(dir, LOCKFILE_NAME), '1\n'); // pid 1 is always alive
    await lock.release();
    t.is((await readFile(path.join(dir, LOCKFILE_NAME), 'utf8')).trim(), '1');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
