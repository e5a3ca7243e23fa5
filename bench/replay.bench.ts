// npm run bench:replay — a full rebuild of every read model (`ops replay`'s code) over purchases of two
// shapes, at 10k and 100k purchases, on the embedded store and, with PG_TEST_URL (or BENCH_PG_URL), on
// PostgreSQL:
//   quoted  one event a purchase (a quote nobody paid: what a quoting service mostly stores), so the
//           cost of each purchase's row is all there is per event;
//   full    seven events a purchase (Quoted, Offered, AuthorizationCheckpointed, SettlementBroadcast,
//           SettlementSubmitted, Settled, Delivered), the whole way through a recovery pass.
// The events come from the real deciders and builders (test/bench/support/purchase-histories.ts). The store
// is loaded once per shape and adapter: the first size, rebuilt and timed, then the purchases that make up
// the next size, rebuilt and timed again (a rebuild always starts from the first event). Prints events/s
// and the per-event cost at each size (linear: the 100k cost close to the 10k cost) with the load average
// beside them, and writes bench/results/replay.json.
// BENCH_REPLAY_SIZES=1000,5000 and BENCH_REPLAY_SHAPES=quoted,full,mix override the defaults; the embedded store is
// SQLite (a new directory's engine), and BENCH_REPLAY_PGLITE=1 rebuilds on PGlite beside it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rebuild } from '../projections/catch-up.js';
import { openReadModels } from '../projections/read-models.js';
import { READ_MODEL_TABLES } from '../projections/schema.js';
import { openStore } from '../src/store/open/open.js';
import type { EventStoreWithProjections } from '../src/store/store-with-projections.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';
import { bulkLoad } from '../test/bench/support/bulk-load.js';
import {
  type HistoryOptions,
  type PurchaseHistory,
  purchaseHistoriesInWorker,
} from '../test/bench/support/purchase-histories.js';

type Shape = NonNullable<HistoryOptions['shape']>;
const SIZES = (process.env.BENCH_REPLAY_SIZES ?? '10000,100000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const SHAPES = (process.env.BENCH_REPLAY_SHAPES ?? 'quoted,full').split(',') as Shape[];
for (const s of SHAPES)
  if (!['quoted', 'full', 'mix'].includes(s)) throw new Error(`BENCH_REPLAY_SHAPES: unknown shape ${s}`);
if (SIZES.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('BENCH_REPLAY_SIZES: positive integers');
const pgUrl = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL;

interface Row {
  adapter: string;
  shape: Shape;
  purchases: number;
  events: number;
  events_per_purchase: number;
  rebuild_seconds: number;
  /** CPU this process spent in the rebuild (user + system): on the embedded store the database's too. */
  process_cpu_seconds: number;
  /** The first rebuild in this process, at the smallest size only: statements and code paths not yet warm. */
  first_rebuild_seconds?: number;
  events_per_second: number;
  microseconds_per_event: number;
  microseconds_per_purchase: number;
  /** `os.loadavg()` (1, 5, 15 min) as the rebuild ended: the machine is shared. */
  load_average: number[];
  rows: Record<string, number>;
}

/** Takes `n` histories from `source` without closing it, so the next size continues where this one ended. */
async function* take(source: AsyncIterator<PurchaseHistory>, n: number): AsyncGenerator<PurchaseHistory> {
  for (let i = 0; i < n; i++) {
    const r = await source.next();
    if (r.done) return;
    yield r.value;
  }
}

async function measureShape(
  adapter: string,
  shape: Shape,
  open: () => Promise<EventStoreWithProjections>,
): Promise<Row[]> {
  const store = await open();
  const source = purchaseHistoriesInWorker(SIZES.at(-1)!, { seed: 7, shape })[Symbol.asyncIterator]();
  const rows: Row[] = [];
  try {
    const models = await openReadModels(store);
    let purchases = 0;
    let events = 0;
    for (const size of SIZES) {
      const t0 = performance.now();
      const loaded = await bulkLoad(store.sql!, take(source, size - purchases), { interleave: true });
      purchases = size;
      events += loaded.events;
      const loadSeconds = (performance.now() - t0) / 1000;
      let first: number | undefined;
      if (size === SIZES[0]) {
        // What an operator's first `ops replay` meets; the figures below are of the same rebuild warm.
        const t = performance.now();
        await rebuild(models.db, models.feed);
        first = round((performance.now() - t) / 1000);
      }
      const cpu = process.cpuUsage();
      const t1 = performance.now();
      const done = await rebuild(models.db, models.feed);
      const seconds = (performance.now() - t1) / 1000;
      const used = process.cpuUsage(cpu);
      const load = os.loadavg().map((x) => round(x));
      if (done.events !== events) throw new Error(`rebuild read ${done.events} events, ${events} were loaded`);
      const counts: Record<string, number> = {};
      for (const table of READ_MODEL_TABLES) {
        const [r] = await models.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
        counts[table] = Number(r?.n ?? 0);
      }
      if (counts.rm_purchases !== purchases)
        throw new Error(`rebuild wrote ${counts.rm_purchases} purchase rows for ${purchases} purchases`);
      rows.push({
        adapter,
        shape,
        purchases,
        events,
        events_per_purchase: round(events / purchases),
        rebuild_seconds: round(seconds),
        process_cpu_seconds: round((used.user + used.system) / 1e6),
        ...(first !== undefined ? { first_rebuild_seconds: first } : {}),
        events_per_second: Math.round(events / seconds),
        microseconds_per_event: round((seconds * 1e6) / events),
        microseconds_per_purchase: round((seconds * 1e6) / purchases),
        load_average: load,
        rows: counts,
      });
      console.log(JSON.stringify({ ...rows.at(-1), load_seconds: round(loadSeconds) }));
    }
    await models.close();
  } finally {
    await source.return?.(undefined);
    await store.close();
  }
  return rows;
}

const round = (x: number) => Math.round(x * 100) / 100;

const results: Row[] = [];
for (const shape of SHAPES) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-bench-replay-'));
  try {
    // A new directory's engine: SQLite (docs/decisions.md, "SQLite, the embedded engine").
    results.push(...(await measureShape('embedded (SQLite)', shape, () => openStore(`file:${dir}`))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (process.env.BENCH_REPLAY_PGLITE === '1') {
    const pgliteDir = await mkdtemp(path.join(os.tmpdir(), 'rights-bench-replay-'));
    try {
      results.push(...(await measureShape('embedded (PGlite)', shape, () => openStore(`pglite:${pgliteDir}`))));
    } finally {
      await rm(pgliteDir, { recursive: true, force: true });
    }
  }
  if (pgUrl) {
    const schema = freshSchemaName();
    try {
      results.push(...(await measureShape('postgres', shape, () => openStore(withSchema(pgUrl, schema)))));
    } finally {
      await dropSchema(pgUrl, schema);
    }
  } else if (shape === SHAPES[0]) console.log('PostgreSQL: skipped (set PG_TEST_URL or BENCH_PG_URL)');
}

console.log(
  '\n| adapter | shape | purchases | events | rebuild s | events/s | µs/event | µs/purchase | cost vs smallest | ' +
    'process CPU s | first rebuild s | load (1/5/15 min) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const base = results.find((b) => b.adapter === r.adapter && b.shape === r.shape)!;
  console.log(
    `| ${r.adapter} | ${r.shape} | ${r.purchases} | ${r.events} | ${r.rebuild_seconds} | ${r.events_per_second} | ` +
      `${r.microseconds_per_event} | ${r.microseconds_per_purchase} | ` +
      `${(r.microseconds_per_event / base.microseconds_per_event).toFixed(2)}× | ${r.process_cpu_seconds} | ` +
      `${r.first_rebuild_seconds ?? ''} | ${r.load_average.join(' / ')} |`,
  );
}
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'replay.json'),
  JSON.stringify(
    {
      benchmark: 'read-model rebuild',
      measured_at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      results,
    },
    null,
    2,
  ) + '\n',
);
