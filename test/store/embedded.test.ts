import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { LOCKFILE_NAME } from '../../src/store/embedded/lockfile.js';
import { embeddedThreadOf, openEmbeddedStore } from '../../src/store/embedded/open-embedded.js';
import { openStore } from '../../src/store/open/open.js';
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

test.serial(
  'embedded: a data directory written by PGlite on the main thread opens on the worker thread, and back',
  async (t) => {
    // An embedded directory from before the store moved to a worker thread is the same PGlite cluster: it opens
    // as it is, nothing to migrate (docs/decisions.md, "The embedded engine").
    const dir = await freshEmbeddedDir();
    try {
      const before = await openEmbeddedStore(dir, {}, 'main');
      const first = await before.append('carried-over', [ev('A')], 'no_stream');
      await before.close();
      const after = await openEmbeddedStore(dir, {}, 'worker');
      t.deepEqual(
        (await after.readStream('carried-over')).map((e) => [e.type, e.position]),
        [['A', first.position]],
      );
      const second = await after.append('carried-over', [ev('B')], 0n);
      await after.close();
      const back = await openEmbeddedStore(dir, {}, 'main');
      t.deepEqual(
        (await back.readStream('carried-over')).map((e) => [e.type, e.position]),
        [
          ['A', first.position],
          ['B', second.position],
        ],
      );
      await back.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);

test.serial('embedded: EMBEDDED_STORE_THREAD accepts main (the default) or worker, and names anything else', (t) => {
  t.is(embeddedThreadOf(undefined), 'main');
  t.is(embeddedThreadOf('worker'), 'worker');
  t.throws(() => embeddedThreadOf('wasm'), { instanceOf: TypeError, message: /EMBEDDED_STORE_THREAD "wasm"/ });
});
