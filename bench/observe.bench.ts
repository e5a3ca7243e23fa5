// npx tsx bench/observe.bench.ts — the RSL work of one quote on a warm fetch cache (discovery, parse,
// evaluation, the bounded reading), as CPU per call of the engine's `observe`: the part of a quote that
// neither the store nor HTTP does (docs/decisions.md "A quote's own CPU"). Real HTTPS publisher on
// loopback (test/support/publishers.ts), fetched once; then BENCH_OBSERVE_CALLS calls one after another,
// in rounds, each round's process CPU (all threads) over its calls. CPU, not wall time: on a shared
// machine the figure is what a call costs, not how long it waited for a core. Prints JSON lines.
import { tmpdir } from 'node:os';
import { startTestOrigins } from '../src/devnet/https-origin.js';
import { loadConfig } from '../src/config/config.js';
import { createRslEngine } from '../src/rsl/engine.js';
import { DECLARED, publisherSite } from '../test/support/publishers.js';

const CALLS = Number(process.env.BENCH_OBSERVE_CALLS ?? 2000);
const ROUNDS = Number(process.env.BENCH_OBSERVE_ROUNDS ?? 5);

const origins = await startTestOrigins(publisherSite());
const config = loadConfig({ ...origins.env, DATA_DIR: tmpdir() });
const engine = createRslEngine(config);
const ctx = { userClass: 'commercial' as const, geo: null, freshnessSeconds: 300 };
try {
  for (let i = 0; i < 500; i++) await engine.observe(DECLARED, ['ai-input'], ctx); // fetch once, warm the JIT
  const perCall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) await engine.observe(DECLARED, ['ai-input'], ctx);
    const used = process.cpuUsage(t0);
    perCall.push((used.user + used.system) / CALLS);
  }
  perCall.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      benchmark: 'observe',
      calls_per_round: CALLS,
      rounds: ROUNDS,
      cpu_us_per_call_min: Math.round(perCall[0]!),
      cpu_us_per_call_median: Math.round(perCall[Math.floor(perCall.length / 2)]!),
      load_average: (await import('node:os')).loadavg().map((l) => Math.round(l * 10) / 10),
    }),
  );
} finally {
  engine.close();
  await origins.close();
}
