import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { openStore } from '../../src/store/open/open.js';

// The embedded store's memory: initdb runs in a child process (its WebAssembly memory would never be
// returned), and the buffer cache inside PGlite's memory is small. Measured as RSS growth of this
// process across a first open, which used to be ~800 MB.

// A new directory is SQLite by default (docs/decisions.md, "SQLite, the embedded engine"): `pglite:` asks for PGlite.
test(
  'a first open of a new PGlite store grows this ' + 'process by far less than an in-process initdb would',
  async (t) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-embedded-mem-'));
    try {
      const before = process.memoryUsage().rss;
      const store = await openStore(`pglite:${dir}`);
      const grown = (process.memoryUsage().rss - before) / 1e6;
      try {
        t.log(`RSS grew ${Math.round(grown)} MB`);
        t.true(grown < 450, `RSS grew ${Math.round(grown)} MB`);
        const [row] = await store.sql!.query<{ shared_buffers: string }>('SHOW shared_buffers');
        t.is(row?.shared_buffers, '16MB');
        t.true((await readdir(dir)).includes('PG_VERSION'), 'the child created the cluster in the directory');
        const r = await store.append(
          'mem-check',
          [{ id: '00000000-0000-4000-8000-000000000001', type: 'A', data: {} }],
          'no_stream',
        );
        t.is(r.nextExpectedRevision, 0n);
      } finally {
        await store.close();
      }
      const again = await openStore(`file:${dir}`);
      t.is((await again.readStream('mem-check')).length, 1, 'a reopen finds the cluster and its events');
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
