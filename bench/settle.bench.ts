// npm run bench:settle — paid reports at chain speed: N buyers (default 50), each holding a quote and
// a signed payment for its own report, pay at the same moment on a devnet that mines on the clock
// (DEVNET_BLOCK_MS 2000 as Base, 250 near Flashblocks), for `self` and `facilitator` settlement, on
// the embedded store and on PostgreSQL (when PG_TEST_URL or BENCH_PG_URL is set). Prints wall time
// from the first payment to the last delivered report, the blocks that held the transfers and the
// blocks that passed, and p50/p99 latency; writes bench/results/settle.json. The service runs in its own
// process (as `npm start` runs it, CHAIN_BLOCK_MS set to the devnet's pace); the devnet, the publishers
// and the local facilitator server run in this process.
//
//   BENCH_SETTLE_N=50  BENCH_SETTLE_BLOCK_MS=2000,250  BENCH_SETTLE_MODES=self,facilitator
//   BENCH_SETTLE_STORES=embedded,postgres  BENCH_SETTLE_CPU_PROF=<dir> (a CPU profile of each service process)
//   BENCH_SETTLE_WARMUP=0  paid redemptions made before the measured ones, unmeasured (a diagnostic: how much
//                          of the burst is V8 compiling the paid path of a service that has never run it)
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, type Hex } from 'viem';
import { startFacilitatorServer, type FacilitatorServer } from '../src/devnet/facilitator-server.js';
import { localServiceEnv, startLocalParts, type LocalWorldParts } from '../ops/world/local-world.js';
import { DECLARED, publisherSite } from '../test/support/publishers.js';
import { signPayment } from '../test/support/pay.js';
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_SETTLE_N ?? 50);
const BLOCK_MS = (process.env.BENCH_SETTLE_BLOCK_MS ?? '2000,250').split(',').map(Number);
const MODES = (process.env.BENCH_SETTLE_MODES ?? 'self,facilitator').split(',') as ('self' | 'facilitator')[];
const pgUrl = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL;
const WARMUP = Number(process.env.BENCH_SETTLE_WARMUP ?? 0);

interface Row {
  store: string;
  settlement: 'self' | 'facilitator';
  block_ms: number;
  buyers: number;
  delivered: number;
  errors: number;
  /** First payment sent → last report delivered. */
  wall_ms: number;
  /** Blocks that hold this run's transfers, and blocks mined from the first payment to the last transfer. */
  blocks_with_transfers: number;
  blocks_elapsed: number;
  p50_ms: number;
  p99_ms: number;
  /** CPU the service process spent on the N paid redemptions (user + system), ms. */
  service_cpu_ms: number;
}

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Quotes, offers and signs `n` purchases before the clock starts, ten at a time. */
async function prepare(parts: LocalWorldParts, service: ServiceProcess, n: number) {
  const quoteBody = JSON.stringify({
    resource: DECLARED,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  const signed: { url: string; headers: Record<string, string> }[] = [];
  await Promise.all(
    Array.from({ length: 10 }, async (_, lane) => {
      for (let i = lane; i < n; i += 10) {
        const quoted = await fetch(`${service.url}/v1/rights/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: quoteBody,
        });
        const text = await quoted.text();
        if (quoted.status !== 200 && quoted.status !== 201) throw new Error(`quote: ${quoted.status} ${text}`);
        const q = JSON.parse(text) as { claim_token: string; report_url: string };
        const offer = await fetch(`${service.url}${q.report_url}`, { headers: { 'x-service-claim': q.claim_token } });
        await offer.arrayBuffer();
        if (offer.status !== 402) throw new Error(`offer: ${offer.status}`);
        const buyer = parts.devnet.buyers[i % parts.devnet.buyers.length]!;
        signed.push({
          url: `${service.url}${q.report_url}`,
          headers: {
            'x-service-claim': q.claim_token,
            'payment-signature': await signPayment(buyer.privateKey, offer.headers.get('payment-required')!),
          },
        });
      }
    }),
  );
  return signed;
}

async function run(store: string, eventStoreUrl: string | undefined, mode: 'self' | 'facilitator', blockMs: number) {
  const parts = await startLocalParts(publisherSite(), 'rights-bench-settle-', { blockMs });
  let service: ServiceProcess | undefined;
  let facilitator: FacilitatorServer | undefined;
  try {
    const { devnet } = parts;
    if (mode === 'facilitator')
      facilitator = await startFacilitatorServer({
        rpcUrl: devnet.rpcUrl,
        relayerPrivateKey: devnet.facilitatorRelayer.privateKey,
        network: devnet.network,
        timing: { blockMs },
      });
    const env = {
      ...localServiceEnv({ ...parts, logLevel: 'info', ...(eventStoreUrl ? { eventStoreUrl } : {}) }),
      CHAIN_BLOCK_MS: String(blockMs),
      ...(facilitator ? { SETTLEMENT: 'facilitator', FACILITATOR_URL: facilitator.url } : {}),
    };
    service = await startServiceProcess(env, () => {}, {
      compiled: true,
      dropOutputAfterStart: true,
      // BENCH_SETTLE_CPU_PROF=<dir>: a V8 CPU profile of the service process, written when it stops.
      ...(process.env.BENCH_SETTLE_CPU_PROF
        ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SETTLE_CPU_PROF}`] }
        : {}),
    });
    const signed = await prepare(parts, service, N + WARMUP);
    for (const s of signed.splice(0, WARMUP)) await (await fetch(s.url, { headers: s.headers })).arrayBuffer();
    const pub = createPublicClient({ transport: http(devnet.rpcUrl) });
    const startBlock = await pub.getBlockNumber({ cacheTime: 0 });

    const latencies: number[] = [];
    let errors = 0;
    let last = 0;
    const cpu0 = cpuSeconds(service.child.pid!);
    const t0 = performance.now();
    const mono0 = process.hrtime.bigint();
    await Promise.all(
      signed.map(async (s) => {
        const a = performance.now();
        const res = await fetch(s.url, { headers: s.headers });
        await res.arrayBuffer();
        const b = performance.now();
        if (res.status === 200) {
          latencies.push(b - a);
          last = Math.max(last, b);
        } else errors++;
      }),
    );
    const cpu = cpuSeconds(service.child.pid!) - cpu0;
    // The paid window on the monotonic clock a V8 CPU profile's timestamps use (µs), to read only it.
    console.log(`paid window (monotonic µs): ${mono0 / 1000n}-${process.hrtime.bigint() / 1000n}`);
    const blocks = (await Promise.all(devnet.buyers.map((b) => devnet.transfers(b.address as Hex, devnet.payTo))))
      .flat()
      .map((x) => x.blockNumber)
      .filter((bn) => bn > startBlock);
    latencies.sort((x, y) => x - y);
    const q = (p: number) =>
      Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
    const row: Row = {
      store,
      settlement: mode,
      block_ms: blockMs,
      buyers: N,
      delivered: latencies.length,
      errors,
      wall_ms: Math.round(last - t0),
      blocks_with_transfers: new Set(blocks).size,
      blocks_elapsed: blocks.length ? Math.max(...blocks.map((x) => Number(x - startBlock))) : 0,
      p50_ms: q(0.5),
      p99_ms: q(0.99),
      service_cpu_ms: Math.round(cpu * 1000),
    };
    console.log(JSON.stringify(row));
    return row;
  } finally {
    await service?.stop();
    await facilitator?.close();
    await parts.closeAll();
  }
}

const rows: Row[] = [];
const STORES = (process.env.BENCH_SETTLE_STORES ?? 'embedded,postgres').split(',');
const stores: [string, string | undefined][] = STORES.includes('embedded') ? [['embedded', undefined]] : [];
if (pgUrl && STORES.includes('postgres')) stores.push(['postgres', pgUrl]);
else if (!pgUrl) console.log('PostgreSQL: skipped (set PG_TEST_URL or BENCH_PG_URL)');
for (const [store, base] of stores)
  for (const mode of MODES)
    for (const blockMs of BLOCK_MS) {
      const schema = base ? freshSchemaName() : undefined;
      try {
        rows.push(await run(store, base && schema ? withSchema(base, schema) : undefined, mode, blockMs));
      } finally {
        if (base && schema) await dropSchema(base, schema);
      }
    }

console.log(`\n${N} buyers paying at once, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
console.log(
  '| store | settlement | block ms | delivered | errors | first payment → last delivery ms | blocks with transfers ' +
    '| blocks elapsed | p50 ms | p99 ms | service CPU ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.store} | ${r.settlement} | ${r.block_ms} | ${r.delivered}/${r.buyers} | ${r.errors} | ${r.wall_ms} | ` +
      `${r.blocks_with_transfers} | ${r.blocks_elapsed} | ${r.p50_ms} | ${r.p99_ms} | ${r.service_cpu_ms} |`,
  );
const out = path.resolve(ROOT, 'bench/results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'settle.json'),
  JSON.stringify({ when: new Date().toISOString(), cores: os.cpus().length, rows }, null, 2),
);
