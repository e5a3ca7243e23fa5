// npm run bench:store — append and replay throughput of each event store adapter available here:
// embedded always; PostgreSQL with PG_TEST_URL or BENCH_PG_URL; EventStoreDB with ESDB_TEST_URL.
// Prints a table and writes bench/results/store.json. Each adapter gets an empty store (a fresh
// data directory / schema) that is removed afterwards; on EventStoreDB streams are fresh.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openEmbeddedStore } from '../src/store/embedded/open-embedded.js';
import { openStore } from '../src/store/open/open.js';
import type { EventStore, NewEvent } from '../src/store/port.js';
import type { SqlEventStoreOptions } from '../src/store/sql/sql-event-store.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';

const SINGLE_APPENDS = Number(process.env.BENCH_SINGLE ?? 2_000);
const BATCHES_OF_10 = Number(process.env.BENCH_BATCHES ?? 500);
const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY ?? 100_000);
const FILL_BATCH = 1_000; // big appends only to fill the store for the replay measurement
const READ_PAGE = 1_000;
const STREAMS = 100;

const WRITERS = [1, 10, 100];
const QUOTES = Number(process.env.BENCH_STORE_QUOTES ?? 500);
const CONCURRENT_SECONDS = Number(process.env.BENCH_CONCURRENT_SECONDS ?? 3);

interface Row {
  adapter: string;
  /** Single-event appends per second with N concurrent writers, each on its own streams: group commit on / off. */
  concurrent: { writers: number; grouped: number; ungrouped: number; loop_us_per_append: number }[];
  singleAppendsPerSec: number;
  batch10EventsPerSec: number;
  replayEventsPerSec: number;
  replayedEvents: number;
  openMs: number;
  /** This process's resident memory at the end of the adapter's run, store still open (MB). */
  rssMb: number;
  /** A quote's two store operations, one at a time: reading its new stream, appending its ~3 KB Quoted event (µs). */
  quote: { read_us: number; append_us: number };
}

const event = (i: number): NewEvent => ({
  id: randomUUID(),
  type: 'Quoted',
  data: { purchaseId: `p-${i % 500}`, priceMicro: '1250000', sku: `SKU-${i}`, inputSha256: 'ab'.repeat(32) },
  metadata: { correlationId: `c-${i}` },
});

async function timed(work: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

/**
 * N writers, each appending one event at a time to its own streams with exact expected revisions, for `seconds`:
 * appends per second, and the event loop's busy time per append (µs): what each append costs the thread that
 * serves HTTP in the service (a store on a worker thread leaves only the messages there).
 */
async function concurrentAppends(
  store: EventStore,
  writers: number,
  seconds: number,
): Promise<{ perSecond: number; loopUs: number }> {
  const run = randomUUID().slice(0, 8);
  let appends = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const elu0 = performance.eventLoopUtilization();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; performance.now() < until; i++) {
        // A new stream per append, as every quote starts one: the common case of the service.
        await store.append(`bench-${run}-w${w}-${i}`, [event(i)], 'no_stream');
        appends++;
      }
    }),
  );
  const busyMs = performance.eventLoopUtilization(elu0).active;
  return {
    perSecond: Math.round(appends / ((performance.now() - t0) / 1000)),
    loopUs: Math.round((busyMs * 1000) / Math.max(1, appends)),
  };
}

/** A Quoted event shaped as a quote writes one (~3 KB: the reading with its documents), so the facts are computed. */
const quoted = (i: number): NewEvent => ({
  id: randomUUID(),
  type: 'Quoted',
  data: {
    sku: 'rights.preflight.v1',
    input: { resource: `https://pub.example/news/${i}`, purpose: 'ai-input', user_class: 'commercial', tier: 'fresh' },
    price_micro: '10000',
    expires_at: '2026-11-28T12:00:00.000Z',
    decision_preview: { classification: 'PERMITTED', decision: 'allow' },
    reading: {
      origin: 'https://pub.example',
      observed_at: '2026-11-28T11:45:00.000Z',
      documents: Array.from({ length: 4 }, (_, d) => ({
        url: `https://pub.example/rsl-${d}.xml`,
        sha256: `${d}`.repeat(64),
        bytes: 2048,
        problems: [],
        text: 'x'.repeat(500),
      })),
    },
  },
  metadata: { now: '2026-11-28T11:45:00.000Z' },
});

/**
 * A quote's store work, one at a time (no queue in front of the engine, so each figure is the engine's own):
 * the read of the new purchase stream, then the append of its Quoted event. µs per operation.
 */
async function quoteStatements(store: EventStore, n: number): Promise<{ read_us: number; append_us: number }> {
  let readNs = 0n;
  let appendNs = 0n;
  for (let i = 0; i < n; i++) {
    const stream = `purchase-${randomUUID()}`;
    const t0 = process.hrtime.bigint();
    await store.readStream(stream);
    const t1 = process.hrtime.bigint();
    await store.append(stream, [quoted(i)], 'no_stream');
    appendNs += process.hrtime.bigint() - t1;
    readNs += t1 - t0;
  }
  return { read_us: Number(readNs / BigInt(n) / 1000n), append_us: Number(appendNs / BigInt(n) / 1000n) };
}

async function measure(adapter: string, open: (opts: SqlEventStoreOptions) => Promise<EventStore>): Promise<Row> {
  const concurrent: Row['concurrent'] = [];
  for (const writers of WRITERS) {
    const rates: { perSecond: number; loopUs: number }[] = [];
    // Alternate on and off in one process, so the store size and the machine's load are alike for both.
    for (const maxAppendBatch of [256, 1]) {
      const s = await open({ maxAppendBatch });
      try {
        await concurrentAppends(s, writers, 0.3); // warm-up: connections, JIT, the store's first pages
        rates.push(await concurrentAppends(s, writers, CONCURRENT_SECONDS));
      } finally {
        await s.close();
      }
    }
    concurrent.push({
      writers,
      grouped: rates[0]!.perSecond,
      ungrouped: rates[1]!.perSecond,
      loop_us_per_append: rates[0]!.loopUs,
    });
  }
  const t0 = Date.now();
  const store = await open({});
  const openMs = Date.now() - t0;
  await quoteStatements(store, 50); // warm-up
  const quote = await quoteStatements(store, QUOTES);
  const run = randomUUID().slice(0, 8);
  try {
    // Sequential single-event appends with exact expected revisions, round-robin over streams.
    const heads = new Map<string, bigint>();
    const singleSecs = await timed(async () => {
      for (let i = 0; i < SINGLE_APPENDS; i++) {
        const s = `bench-${run}-single-${i % STREAMS}`;
        const head = heads.get(s);
        const r = await store.append(s, [event(i)], head === undefined ? 'no_stream' : head);
        heads.set(s, r.nextExpectedRevision);
      }
    });
    const batchSecs = await timed(async () => {
      for (let b = 0; b < BATCHES_OF_10; b++) {
        await store.append(
          `bench-${run}-batch-${b % STREAMS}`,
          Array.from({ length: 10 }, (_, j) => event(b * 10 + j)),
          'any',
        );
      }
    });
    // Top the store up to REPLAY_EVENTS with big batches (not measured), then replay all of $all.
    let total = SINGLE_APPENDS + BATCHES_OF_10 * 10;
    for (let f = 0; total < REPLAY_EVENTS; f++) {
      const n = Math.min(FILL_BATCH, REPLAY_EVENTS - total);
      await store.append(
        `bench-${run}-fill-${f % STREAMS}`,
        Array.from({ length: n }, (_, j) => event(total + j)),
        'any',
      );
      total += n;
    }
    let replayed = 0;
    const replaySecs = await timed(async () => {
      for (let from = 0n; ; ) {
        const page = await store.readAll(from, READ_PAGE);
        if (page.length === 0) break;
        replayed += page.length;
        from = page[page.length - 1]!.position;
      }
    });
    return {
      adapter,
      concurrent,
      singleAppendsPerSec: Math.round(SINGLE_APPENDS / singleSecs),
      batch10EventsPerSec: Math.round((BATCHES_OF_10 * 10) / batchSecs),
      replayEventsPerSec: Math.round(replayed / replaySecs),
      replayedEvents: replayed,
      openMs,
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      quote,
    };
  } finally {
    await store.close();
  }
}

const rows: Row[] = [];
const notes: string[] = [];

// The embedded engines side by side (docs/decisions.md, "The embedded engine", "SQLite, the embedded engine"):
// SQLite, the default of a new directory, then PGlite on a worker and on the main thread.
async function inFreshDir(label: string, open: (dir: string, opts: SqlEventStoreOptions) => Promise<EventStore>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-bench-embedded-'));
  try {
    rows.push(await measure(label, (opts) => open(dir, opts)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
const ENGINES = (process.env.BENCH_STORE_EMBEDDED ?? 'sqlite,worker,main').split(',');
if (ENGINES.includes('sqlite'))
  await inFreshDir('embedded (SQLite, the default)', (dir, opts) => openStore(`sqlite:${dir}`, opts));
if (ENGINES.includes('worker'))
  await inFreshDir('embedded (PGlite, worker thread)', (dir, opts) => openEmbeddedStore(dir, opts, 'worker'));
if (ENGINES.includes('main'))
  await inFreshDir('embedded (PGlite, main thread)', (dir, opts) => openEmbeddedStore(dir, opts, 'main'));

const pgBase = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL;
if (pgBase) {
  const schema = freshSchemaName();
  try {
    rows.push(await measure('postgres (pg)', (opts) => openStore(withSchema(pgBase, schema), opts)));
  } finally {
    await dropSchema(pgBase, schema);
  }
} else notes.push('postgres: skipped (set PG_TEST_URL or BENCH_PG_URL)');

if (process.env.ESDB_TEST_URL) rows.push(await measure('esdb', (opts) => openStore(process.env.ESDB_TEST_URL!, opts)));
else notes.push('esdb: skipped (set ESDB_TEST_URL)');

const header = [
  'adapter',
  'single appends/s',
  '10-event batches (events/s)',
  `replay readAll (events/s)`,
  'events replayed',
  'open ms',
  'RSS MB',
  'quote: read / append µs',
];
const table = [
  header,
  ...rows.map((r) =>
    [
      r.adapter,
      r.singleAppendsPerSec,
      r.batch10EventsPerSec,
      r.replayEventsPerSec,
      r.replayedEvents,
      r.openMs,
      r.rssMb,
      `${r.quote.read_us} / ${r.quote.append_us}`,
    ].map(String),
  ),
];
const widths = header.map((_, c) => Math.max(...table.map((line) => line[c]!.length)));
for (const [i, line] of table.entries()) {
  console.log(line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '));
  if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log('\nconcurrent single-event appends/s (group commit on / off; event-loop µs per append, on)');
for (const r of rows)
  console.log(
    `${r.adapter}: ${r.concurrent
      .map((c) => `${c.writers} writers ${c.grouped} / ${c.ungrouped} (${c.loop_us_per_append} µs)`)
      .join(', ')}`,
  );
for (const note of notes) console.log(note);

const results = {
  measured: new Date().toISOString(),
  load_average: os.loadavg().map((l) => Math.round(l * 100) / 100),
  machine: {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
  },
  workload: {
    concurrentWriters: WRITERS,
    concurrentSeconds: CONCURRENT_SECONDS,
    singleAppends: SINGLE_APPENDS,
    batchesOf10: BATCHES_OF_10,
    replayEvents: REPLAY_EVENTS,
    readPage: READ_PAGE,
    streams: STREAMS,
  },
  rows,
  notes,
};
const out = fileURLToPath(new URL('./results/store.json', import.meta.url));
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(results, null, 2) + '\n');
console.log(`written ${path.relative(process.cwd(), out)}`);
