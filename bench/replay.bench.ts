// npm run bench:replay — a full rebuild of every read model over 10k and 100k purchases with full,
// realistic histories (quote → delivered, plus abandoned, held, stuck, moved, refunds), on the
// embedded store and, with PG_TEST_URL (or BENCH_PG_URL), on PostgreSQL. Prints events/s of the
// rebuild and the per-event cost at each size (linear means the 100k cost is close to the 10k cost),
// and writes bench/results/replay.json. BENCH_REPLAY_SIZES=1000,5000 overrides the sizes.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rebuild } from '../projections/catch-up.js';
import { openReadModels } from '../projections/read-models.js';
import { READ_MODEL_TABLES } from '../projections/schema.js';
import { openStore } from '../src/store/open.js';
import type { EventStoreWithProjections } from '../src/store/store-with-projections.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';
import { bulkLoad } from '../test/bench/support/bulk-load.js';
import { purchaseHistories } from '../test/bench/support/purchase-histories.js';

const SIZES = (process.env.BENCH_REPLAY_SIZES ?? '10000,100000').split(',').map(Number);
const pgUrl = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL;

interface Row {
  adapter: string;
  purchases: number;
  events: number;
  load_seconds: number;
  rebuild_seconds: number;
  events_per_second: number;
  microseconds_per_event: number;
  rows: Record<string, number>;
}

async function measure(
  adapter: string,
  purchases: number,
  open: () => Promise<EventStoreWithProjections>,
): Promise<Row> {
  const store = await open();
  try {
    const t0 = performance.now();
    const loaded = await bulkLoad(store.sql!, purchaseHistories(purchases, { seed: 7 }), { interleave: true });
    const loadSeconds = (performance.now() - t0) / 1000;
    const models = await openReadModels(store);
    const t1 = performance.now();
    const done = await rebuild(models.db, models.feed);
    const seconds = (performance.now() - t1) / 1000;
    const rows: Record<string, number> = {};
    for (const table of READ_MODEL_TABLES) {
      const [r] = await models.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table}`);
      rows[table] = Number(r?.n ?? 0);
    }
    if (done.events !== loaded.events)
      throw new Error(`rebuild read ${done.events} events, ${loaded.events} were loaded`);
    return {
      adapter,
      purchases,
      events: done.events,
      load_seconds: round(loadSeconds),
      rebuild_seconds: round(seconds),
      events_per_second: Math.round(done.events / seconds),
      microseconds_per_event: round((seconds * 1e6) / done.events),
      rows,
    };
  } finally {
    await store.close();
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

const results: Row[] = [];
for (const n of SIZES) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-bench-replay-'));
  try {
    results.push(await measure('embedded', n, () => openStore(`file:${dir}`)));
    console.log(JSON.stringify(results.at(-1)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (pgUrl) {
    const schema = freshSchemaName();
    try {
      results.push(await measure('postgres', n, () => openStore(withSchema(pgUrl, schema))));
      console.log(JSON.stringify(results.at(-1)));
    } finally {
      await dropSchema(pgUrl, schema);
    }
  } else if (n === SIZES[0]) console.log('PostgreSQL: skipped (set PG_TEST_URL or BENCH_PG_URL)');
}

console.log('\n| adapter | purchases | events | rebuild s | events/s | µs/event | cost vs smallest |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  const base = results.find((b) => b.adapter === r.adapter)!;
  console.log(
    `| ${r.adapter} | ${r.purchases} | ${r.events} | ${r.rebuild_seconds} | ${r.events_per_second} | ` +
      `${r.microseconds_per_event} | ${(r.microseconds_per_event / base.microseconds_per_event).toFixed(2)}× |`,
  );
}
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'replay.json'),
  JSON.stringify(
    { benchmark: 'read-model rebuild', measured_at: new Date().toISOString(), node: process.version, results },
    null,
    2,
  ) + '\n',
);
