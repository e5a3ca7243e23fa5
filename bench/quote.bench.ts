// npm run bench:quote — quote throughput of the service on an empty embedded store and on one holding
// 50k purchases with full histories (BENCH_QUOTE_STORED to change it), read models caught up, as in
// steady state. The leader's projector follows every quote live, so this shows whether the read side
// still slows the service down as the ledger grows (target: within 10%). Real service, real HTTPS
// publishers on loopback (fetch cache warm), real devnet; prints a table, writes bench/results/quote.json.
// Both services run at once and are measured in alternating rounds (empty, stored, empty, …), so a
// machine that is busier in one minute than the next burdens both figures alike.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rebuild } from '../projections/catch-up.js';
import { openReadModels } from '../projections/read-models.js';
import { capturedLogger, localServiceEnv, startLocalParts } from '../ops/world/local-world.js';
import { loadConfig, serviceConfig } from '../src/config/config.js';
import { openStore } from '../src/store/open/open.js';
import { startService } from '../src/service/service.js';
import { DECLARED, publisherSite } from '../test/support/publishers.js';
import { bulkLoad } from '../test/bench/support/bulk-load.js';
import { purchaseHistories } from '../test/bench/support/purchase-histories.js';

const STORED = Number(process.env.BENCH_QUOTE_STORED ?? 50_000);
const SECONDS = Number(process.env.BENCH_QUOTE_SECONDS ?? 12);
const ROUNDS = Number(process.env.BENCH_QUOTE_ROUNDS ?? 6);
const CONCURRENCY = Number(process.env.BENCH_QUOTE_CONCURRENCY ?? 16);

interface Row {
  stored_purchases: number;
  quotes: number;
  seconds: number;
  quotes_per_second: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
}

async function quoteLoad(url: string, seconds: number): Promise<Omit<Row, 'stored_purchases'>> {
  const body = JSON.stringify({ resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const a = performance.now();
        const res = await fetch(`${url}/v1/rights/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        if (res.status === 200 || res.status === 201) latencies.push(performance.now() - a);
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((x, y) => x - y);
  const q = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 10) / 10;
  return {
    quotes: latencies.length,
    seconds: Math.round(elapsed * 100) / 100,
    quotes_per_second: Math.round(latencies.length / elapsed),
    p50_ms: q(0.5),
    p99_ms: q(0.99),
    errors,
  };
}

interface Target {
  stored: number;
  url: string;
  close(): Promise<void>;
}

async function serviceHolding(stored: number): Promise<Target> {
  const parts = await startLocalParts(publisherSite(), 'rights-bench-quote-');
  try {
    const env = localServiceEnv({ ...parts, logLevel: 'warn' });
    if (stored > 0) {
      const store = await openStore(env.EVENT_STORE_URL!);
      await bulkLoad(store.sql!, purchaseHistories(stored, { seed: 11 }), { interleave: true });
      const models = await openReadModels(store);
      await rebuild(models.db, models.feed);
      await store.close();
    }
    const service = await startService(serviceConfig(loadConfig(env)), capturedLogger('warn').log);
    parts.onClose(() => service.stop());
    await quoteLoad(service.url, 2); // warm-up: fetch cache, JIT, PGlite buffers
    return { stored, url: service.url, close: () => parts.closeAll() };
  } catch (err) {
    await parts.closeAll();
    throw err;
  }
}

/** Alternating rounds against each target; the rounds of one target are summed into its row. */
async function measure(targets: Target[]): Promise<Row[]> {
  const rounds = new Map<number, Omit<Row, 'stored_purchases'>[]>(targets.map((t) => [t.stored, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const t of i % 2 === 0 ? targets : [...targets].reverse())
      rounds.get(t.stored)!.push(await quoteLoad(t.url, SECONDS / ROUNDS));
  }
  return targets.map((t) => {
    const rs = rounds.get(t.stored)!;
    const quotes = rs.reduce((n, r) => n + r.quotes, 0);
    const seconds = rs.reduce((n, r) => n + r.seconds, 0);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      stored_purchases: t.stored,
      quotes,
      seconds: Math.round(seconds * 100) / 100,
      quotes_per_second: Math.round(quotes / seconds),
      p50_ms: median(rs.map((r) => r.p50_ms)),
      p99_ms: Math.max(...rs.map((r) => r.p99_ms)),
      errors: rs.reduce((n, r) => n + r.errors, 0),
    };
  });
}

const targets = [await serviceHolding(0), await serviceHolding(STORED)];
let results: Row[];
try {
  results = await measure(targets);
} finally {
  for (const t of targets) await t.close();
}
console.log(`\n${ROUNDS} alternating rounds, ${SECONDS} s per service, ${CONCURRENCY} concurrent quotes`);
console.log('| stored purchases | quotes | quotes/s | median p50 ms | worst p99 ms | errors |');
console.log('|---|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.stored_purchases} | ${r.quotes} | ${r.quotes_per_second} | ${r.p50_ms} | ${r.p99_ms} | ${r.errors} |`,
  );
const ratio = results[1]!.quotes_per_second / results[0]!.quotes_per_second;
console.log(`\nthroughput with ${STORED} purchases stored: ${(ratio * 100).toFixed(1)}% of the empty store's`);
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'quote.json'),
  JSON.stringify(
    {
      benchmark: 'quote throughput vs stored purchases',
      measured_at: new Date().toISOString(),
      node: process.version,
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      results,
      ratio: Math.round(ratio * 1000) / 1000,
    },
    null,
    2,
  ) + '\n',
);
