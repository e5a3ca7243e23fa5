import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { LOCKFILE_NAME } from '../../src/store/embedded/lockfile.js';
import { openStore } from '../../src/store/open.js';
import { StoreLocked } from '../../src/store/port.js';
import { storeConformance, ev } from './conformance.js';
import { embeddedStore, freshEmbeddedDir } from './fixtures/store-under-test.js';

storeConformance(test, 'embedded', embeddedStore);

test.serial('embedded: file: URL creates a missing data directory', async (t) => {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'rights-store-new-'));
  const dir = path.join(parent, 'nested', 'events');
  try {
    const store = await openStore(`file:${dir}`);
    t.is(store.kind, 'embedded');
    t.true((await stat(dir)).isDirectory());
    t.true((await readdir(dir)).includes(LOCKFILE_NAME), 'the open store holds the lockfile');
    await store.close();
    t.false((await readdir(dir)).includes(LOCKFILE_NAME), 'close releases the lockfile');
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
});

test.serial('embedded: a second open of a directory in use is refused with StoreLocked', async (t) => {
  const dir = await freshEmbeddedDir();
  try {
    const first = await openStore(`file:${dir}`);
    const err = await t.throwsAsync(openStore(`file:${dir}`), { instanceOf: StoreLocked });
    t.regex(err.message, new RegExp(`in use by this process.*${LOCKFILE_NAME}`, 's'));
    await first.append('s-0', [ev('A')], 'no_stream');
    await first.close();
    const again = await openStore(`file:${dir}`);
    t.is((await again.readStream('s-0')).length, 1, 'after close the directory opens again with its data');
    await again.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.serial(
  'embedded: a lock held by a live process refuses the open; once that process is gone the stale lock is taken over',
  async (t) => {
    const dir = await freshEmbeddedDir();
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(path.join(dir, LOCKFILE_NAME), `${holder.pid}\n`);
      const err = await t.throwsAsync(openStore(`file:${dir}`), { instanceOf: StoreLocked });
      t.true(err.message.includes(`process ${holder.pid}`), err.message);

      holder.kill('SIGKILL');
      await once(holder, 'exit');
      const store = await openStore(`file:${dir}`);
      t.is(store.kind, 'embedded');
      await store.close();
    } finally {
      holder.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  },
);
