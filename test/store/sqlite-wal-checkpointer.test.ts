import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import test from 'ava';
import { openStore } from '../../src/store/open/open.js';
import { SQLITE_FILE } from '../../src/store/sqlite/sqlite-file.js';
import { type CheckpointReport, walCheckpointer } from '../../src/store/sqlite/wal-checkpointer.js';
import { promisify } from 'node:util';
import { ev } from './conformance.js';

const execFileAsync = promisify(execFile);

// The WAL's checkpoints run on a thread of their own, never inside an append's COMMIT on the service's loop
// (src/store/sqlite/wal-checkpointer.ts; docs/decisions.md, "A quote on SQLite"). Counted in WAL frames and
// checkpoint reports, never timed.

const hold = <T>(work: () => Promise<T>) => work();

async function scratchDb(t: { teardown: (f: () => Promise<void>) => void }) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-wal-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'e.sqlite');
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  /** One commit per row, as appends are: ~3 KB each, a page or two of WAL apiece. */
  const write = (rows: number) => {
    for (let i = 0; i < rows; i++) {
      db.exec('BEGIN IMMEDIATE');
      insert.run('x'.repeat(3_000));
      db.exec('COMMIT');
    }
  };
  return { dir, file, db, write };
}

test.serial('the main connection never checkpoints by itself; the worker copies what it wrote', async (t) => {
  const { file, db, write } = await scratchDb(t);
  const reports: CheckpointReport[] = [];
  const checkpointer = await walCheckpointer(db, file, hold, {
    everyMs: 60_000,
    onCheckpoint: (r) => reports.push(r),
  });
  t.is(Number((db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint), 0);
  // 2,500 commits of ~3 KB: SQLite's own checkpoint (every 1,000 pages) would have run inside a COMMIT here.
  write(2_500);
  const r = await checkpointer.checkpointNow();
  t.false(r.appendsHeld);
  t.true(r.log > 1_000, `the WAL held every frame written since the start (${r.log}): nobody checkpointed at commit`);
  t.is(r.checkpointed, r.log, 'the worker copied every frame into the database file');
  // A writer that finds every frame copied writes the WAL again from its start.
  write(1);
  const after = await checkpointer.checkpointNow();
  t.true(after.log < 10, `the WAL was rewound (${after.log} frames)`);
  t.is(reports.filter((x) => x.appendsHeld).length, 0);
  await checkpointer.close();
  db.close();
});

test.serial(
  'past the high-water mark the worker checkpoints once more with the appends held, and the WAL is rewound',
  async (t) => {
    const { file, db, write } = await scratchDb(t);
    const onMain: CheckpointReport[] = [];
    let holds = 0;
    const counted = <T>(work: () => Promise<T>) => {
      holds++;
      return work();
    };
    let seen!: () => void;
    const ranOnMain = new Promise<void>((resolve) => {
      seen = resolve;
    });
    const checkpointer = await walCheckpointer(db, file, counted, {
      everyMs: 60_000,
      highWaterPages: 100,
      onCheckpoint: (r) => {
        if (!r.appendsHeld) return;
        onMain.push(r);
        seen();
      },
    });
    write(300);
    await checkpointer.checkpointNow();
    await ranOnMain;
    t.is(onMain.length, 1);
    t.is(holds, 1, 'the appends were held for it');
    t.is(onMain[0]!.checkpointed, onMain[0]!.log);
    write(1);
    t.true((await checkpointer.checkpointNow()).log < 10, 'the next write rewound the WAL');
    await checkpointer.close();
    db.close();
  },
);

test.serial('a SQLite store closes its checkpoint thread with it: reopened, every event is there', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-wal-store-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const store = await openStore(`sqlite:${dir}`);
  for (let i = 0; i < 50; i++) await store.append(`s-${i}`, [ev('A'), ev('B')], 'no_stream');
  await store.close();
  t.false((await readdir(dir)).includes(`${SQLITE_FILE}-wal`), 'the last connection to close folded the WAL in');
  const again = await openStore(`sqlite:${dir}`);
  t.is((await again.readAll(0n, 1_000)).length, 100);
  await again.close();
});

test('the checkpoint thread starts in a process started as an ES module (--input-type=module)', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-sqlite-wal-esm-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const opener = new URL('../../src/store/open/open.ts', import.meta.url).href;
  const script = `const { openStore } = await import(${JSON.stringify(opener)});
    const store = await openStore(${JSON.stringify(`file:${path.join(dir, 'events')}`)});
    await store.close();
    console.log('opened and closed');`;
  // A worker evaluated from a string is an ES module here, where `require` is not defined.
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'),
  });
  t.is(stdout.trim(), 'opened and closed');
});
