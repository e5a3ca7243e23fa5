import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { openStore } from '../../src/store/open/open.js';
import { StoreUnavailable } from '../../src/store/port.js';
import { storeConformance, name } from './conformance.js';
import { dropSchema, freshSchemaName, postgresStore, withSchema } from './fixtures/store-under-test.js';
import { requiredServerUrl } from '../support/required-server.js';

const baseUrl = requiredServerUrl(test, 'PG_TEST_URL', 'PostgreSQL conformance', { requiredInCi: true });

if (baseUrl) {
  storeConformance(test, 'postgres', postgresStore(baseUrl));

  test.serial(
    'postgres: two OS processes race on one stream, ' +
      'exactly one wins each round (and migrate the fresh schema together)',
    async (t) => {
      const schema = freshSchemaName(); // not created yet: both children run the migration at once
      const url = withSchema(baseUrl, schema);
      const children = [racer(url), racer(url)];
      try {
        await Promise.all(children.map((c) => c.next()));
        const stream = name('process-race');
        const winners: number[] = [];
        for (let round = 0; round < 5; round++) {
          const expected = round === 0 ? 'no_stream' : String(round - 1);
          const outcomes = await Promise.all(children.map((c) => c.ask(`${stream} ${expected}`)));
          const parsed = outcomes.map((o) => JSON.parse(o) as { outcome: string; message?: string });
          for (const p of parsed) t.true(p.outcome === 'won' || p.outcome === 'conflict', JSON.stringify(p));
          winners.push(parsed.filter((p) => p.outcome === 'won').length);
        }
        t.log(
          `postgres (two OS processes, pids ${children.map((c) => c.pid).join(' and ')}): ` +
            `winners per round = [${winners.join(', ')}]`,
        );
        t.deepEqual(winners, [1, 1, 1, 1, 1]);

        const store = await openStore(url);
        t.deepEqual(
          (await store.readStream(stream)).map((e) => e.revision),
          [0n, 1n, 2n, 3n, 4n],
        );
        await store.close();
      } finally {
        await Promise.all(children.map((c) => c.end()));
        await dropSchema(baseUrl, schema);
      }
    },
  );

  test.serial('postgres: a reader tailing readAll during concurrent appends never skips an event', async (t) => {
    const under = await postgresStore(baseUrl)();
    try {
      const writers = [under.store, await under.peer!(), await under.peer!()];
      let writing = true;
      const tailed: bigint[] = [];
      const tail = (async () => {
        let from = 0n;
        while (writing || (await under.store.readAll(from, 1)).length > 0) {
          for (const e of await under.store.readAll(from, 50)) {
            tailed.push(e.position);
            from = e.position;
          }
        }
      })();
      // Many small transactions from three pools: without ordered position assignment, a
      // transaction holding a lower position often commits after a higher one was already read.
      await Promise.all(
        writers.flatMap((w, wi) =>
          Array.from({ length: 8 }, async (_, lane) => {
            for (let i = 0; i < 25; i++)
              await w.append(`tail-${wi}-${lane}`, [{ id: crypto.randomUUID(), type: 'T', data: { i } }], 'any');
          }),
        ),
      );
      writing = false;
      await tail;
      const all = (await under.store.readAll(0n, 10_000)).map((e) => e.position);
      t.is(all.length, 600);
      t.deepEqual(tailed, all, 'the tailing reader saw exactly the committed events, in order');
    } finally {
      await under.dispose();
    }
  });

  test.serial('postgres: several stores opening a fresh schema at once all migrate safely', async (t) => {
    const schema = freshSchemaName();
    const url = withSchema(baseUrl, schema);
    try {
      const stores = await Promise.all(Array.from({ length: 4 }, () => openStore(url)));
      const results = await Promise.all(
        stores.map((s, i) => s.append(`opened-${i}`, [{ id: crypto.randomUUID(), type: 'A', data: {} }], 'no_stream')),
      );
      t.is(new Set(results.map((r) => r.position)).size, 4);
      await Promise.all(stores.map((s) => s.close()));
    } finally {
      await dropSchema(baseUrl, schema);
    }
  });
}

// Needs no server: a port nobody listens on.
test('postgres: an unreachable server is reported as StoreUnavailable', async (t) => {
  await t.throwsAsync(openStore('postgres://nobody:nothing@127.0.0.1:1/none'), { instanceOf: StoreUnavailable });
});

interface Racer {
  pid: number | undefined;
  next(): Promise<string>;
  ask(line: string): Promise<string>;
  end(): Promise<void>;
}

function racer(url: string): Racer {
  const script = fileURLToPath(new URL('./fixtures/race-appender.ts', import.meta.url));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', script, url], {
    stdio: 'pipe',
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const lines: Interface = createInterface({ input: child.stdout });
  const pending: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else pending.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const ready = pending.shift();
      if (ready !== undefined) return resolve(ready);
      waiting.push(resolve);
      void exited.then(() => reject(new Error(`racer ${child.pid} exited: ${stderr}`)));
    });
  return {
    pid: child.pid,
    next,
    ask(line) {
      child.stdin.write(line + '\n');
      return next();
    },
    async end() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
