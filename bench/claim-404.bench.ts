// npm run bench:claim-404 — does the wrong-claim 404 tell whether a purchase exists, and how far it got?
// The real service on the embedded store (a local world) holds purchases in four states: unknown (no
// stream), quoted, offered and delivered (real streams from the benchmark histories, built by the
// deciders). GET /v1/rights/reports/{id} with a wrong claim is asked 2,000 times per state (BENCH_ROUNDS),
// interleaved: each round asks one purchase of every state, in an order that rotates from round to
// round, so load and GC fall on all four alike. Prints the median and p90 per state and the spread of
// the medians (goal: within 5% of each other), and writes bench/results/claim-404.json.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startLocalWorld } from '../ops/world/local-world.js';
import { purchaseIdOfStream } from '../streams/purchase/purchase-id.js';
import { purchaseHistories } from '../test/bench/support/purchase-histories.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2000);
const WARMUP_ROUNDS = 200;
const PER_STATE = 25;
const STATES = ['unknown', 'quoted', 'offered', 'delivered'] as const;
type State = (typeof STATES)[number];

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const w = await startLocalWorld({}, { logLevel: 'silent', tmpPrefix: 'rights-bench-claim-' });
  try {
    const ids: Record<State, string[]> = { unknown: [], quoted: [], offered: [], delivered: [] };
    for (let i = 0; i < PER_STATE; i++) ids.unknown.push(randomBytes(32).toString('hex'));
    for (const h of purchaseHistories(200, { seed: 404 })) {
      const id = purchaseIdOfStream(h.stream);
      if (!id) continue;
      if (h.path !== 'delivered') continue;
      // Quoted and offered are delivered histories cut short: the buyer has not paid (yet).
      if (ids.quoted.length < PER_STATE) {
        ids.quoted.push(id);
        await w.service.store.append(h.stream, h.events.slice(0, 1), 'no_stream'); // Quoted
      } else if (ids.offered.length < PER_STATE) {
        ids.offered.push(id);
        await w.service.store.append(h.stream, h.events.slice(0, 2), 'no_stream'); // Quoted, Offered
      } else if (ids.delivered.length < PER_STATE) {
        ids.delivered.push(id);
        await w.service.store.append(h.stream, h.events, 'no_stream');
      }
    }
    for (const s of STATES) if (ids[s].length < PER_STATE) throw new Error(`too few ${s} purchases in the histories`);

    const claim = randomBytes(32).toString('hex');
    const ask = async (id: string): Promise<number> => {
      const t0 = performance.now();
      const res = await fetch(`${w.url}/v1/rights/reports/${id}`, { headers: { 'x-service-claim': claim } });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      if (res.status !== 404) throw new Error(`expected 404, got ${res.status}`);
      return ms;
    };
    const times: Record<State, number[]> = { unknown: [], quoted: [], offered: [], delivered: [] };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      for (let k = 0; k < STATES.length; k++) {
        const state = STATES[(round + k) % STATES.length]!;
        const ms = await ask(ids[state][round % PER_STATE]!);
        if (round >= WARMUP_ROUNDS) times[state].push(ms);
      }
    }

    const results = STATES.map((state) => {
      const sorted = [...times[state]].sort((a, b) => a - b);
      return {
        state,
        requests: sorted.length,
        median_ms: Number(quantile(sorted, 0.5).toFixed(4)),
        p90_ms: Number(quantile(sorted, 0.9).toFixed(4)),
      };
    });
    const medians = results.map((r) => r.median_ms);
    const spread = (Math.max(...medians) / Math.min(...medians) - 1) * 100;
    console.log('wrong-claim 404, GET /v1/rights/reports/{id}, interleaved');
    console.log('state       requests  median ms  p90 ms');
    for (const r of results)
      console.log(
        `${r.state.padEnd(11)} ${String(r.requests).padStart(8)}  ${r.median_ms.toFixed(3).padStart(9)}  ` +
          `${r.p90_ms.toFixed(3).padStart(6)}`,
      );
    console.log(`spread of the medians: ${spread.toFixed(1)}% (goal: within 5%)`);

    const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), './results/claim-404.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify(
        {
          benchmark: 'wrong-claim 404 by purchase state',
          measured_at: new Date().toISOString(),
          node: process.version,
          cpu: os.cpus()[0]?.model ?? 'unknown',
          load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
          store: 'embedded',
          rounds: ROUNDS,
          warmup_rounds: WARMUP_ROUNDS,
          purchases_per_state: PER_STATE,
          results,
          median_spread_percent: Number(spread.toFixed(2)),
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await w.close();
  }
}

await main();
