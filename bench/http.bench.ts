// npm run bench:http — the service's HTTP paths against a bare Koa ceiling, in one run, side by side,
// on 127.0.0.1: capabilities, inspect (a ~2 KB RSL document), quote (warm fetch cache, each one a new
// purchase) at 50 and 500 connections with autocannon, then paid redemptions of pre-signed bound
// payments on the devnet. The service runs in its own process (as `npm start` runs it, access log on)
// so its RSS is its own; the devnet and the publishers run in this process. Embedded store always,
// PostgreSQL too when PG_TEST_URL (or BENCH_PG_URL) is set. Prints a table, writes bench/results/http.json.
//
// "Service-side" redemptions/s is what the service's own CPU allows: redemptions divided by the CPU
// seconds the service process used during the run (time waiting on the chain costs it no CPU).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { localServiceEnv, startLocalParts, type LocalWorldParts } from '../ops/world/local-world.js';
import { DECLARED, publisherSite } from '../test/support/publishers.js';
import { signPayment } from '../test/support/pay.js';
import { startServiceProcess, type ServiceProcess } from '../test/support/service-process.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
// A/B runs of one path (e.g. the warm-cache quote before and after a change) may narrow the run:
// BENCH_HTTP_TARGETS=quote (substrings of the target names), BENCH_HTTP_CONNECTIONS=50, BENCH_HTTP_REDEMPTIONS=0,
// BENCH_HTTP_STORES=postgres. The embedded store is SQLite, a new data directory's engine; `pglite` in
// BENCH_HTTP_STORES runs PGlite beside it (docs/decisions.md, "SQLite, the embedded engine").
const CONNECTIONS = (process.env.BENCH_HTTP_CONNECTIONS ?? '50,500').split(',').map(Number);
const TARGETS = process.env.BENCH_HTTP_TARGETS?.split(',');
const STORES = (process.env.BENCH_HTTP_STORES ?? 'embedded,postgres').split(',');
const REDEMPTIONS = Number(process.env.BENCH_HTTP_REDEMPTIONS ?? 400);
const REDEMPTION_CONCURRENCY = 50;
const pgUrl = process.env.BENCH_PG_URL ?? process.env.PG_TEST_URL;
const UNLIMITED = Object.fromEntries(
  ['INSPECT', 'QUOTE', 'PREFLIGHT', 'GATE'].flatMap((route) => [
    [`RATE_LIMIT_${route}_PER_MINUTE`, '1000000000'],
    [`RATE_LIMIT_${route}_BURST`, '1000000000'],
  ]),
);

interface Row {
  store: string;
  target: string;
  connections: number;
  req_per_s: number;
  /** Answers that were 2xx, per second: what the ratio to bare Koa counts (a 503 or 429 is cheap). */
  ok_per_s: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non_2xx: number;
  vs_bare_koa: number | null;
  peak_rss_mb: number | null;
  /** The service process's CPU (every thread) per answer during the run: what a request costs it, whatever
   *  the machine's load (a busy machine lowers req/s, not this; cache and scheduling noise aside). */
  service_cpu_ms_per_request?: number;
}

/** The service process's resident memory, sampled while a target runs. */
function rssSampler(pid: number) {
  let peak = 0;
  const read = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) peak = Math.max(peak, Number(m[1]) / 1024);
  };
  read();
  const timer = setInterval(read, 100);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return Math.round(peak);
    },
  };
}

/** User + system CPU seconds of a process (/proc counts in USER_HZ, 100 per second on Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function cannon(opts: {
  url: string;
  connections: number;
  method?: 'GET' | 'POST';
  body?: string;
  seconds?: number;
}) {
  const r = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.seconds ?? SECONDS,
    timeout: 10,
    method: opts.method ?? 'GET',
    ...(opts.body ? { body: opts.body, headers: { 'content-type': 'application/json' } } : {}),
  });
  return {
    req_per_s: Math.round(r.requests.average),
    // Over the run's own measured length: autocannon's runs last a little longer than asked, by a varying
    // amount, so dividing by the requested seconds inflated some rows (bare Koa's too) by up to 10%.
    ok_per_s: Math.round(r['2xx'] / (r.duration || (opts.seconds ?? SECONDS))),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors,
    timeouts: r.timeouts,
    non_2xx: r.non2xx,
  };
}

async function startBareKoa(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/support/bare-koa.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve((JSON.parse(d.toString('utf8')) as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`bare Koa exited ${code}`)));
  });
  return { url, child };
}

/** A ~2 KB RSL document: the all-elements skeleton and a few more scopes. */
function inspectBody(): string {
  const scopes = ['/news/', '/archive/', '/video/', '/podcasts/', '/docs/']
    .map(
      (p) =>
        `
  <content url="${p}*" lastmod="2026-10-01T00:00:00Z">
    <license><permits type="usage">search ai-index</permits><prohibits type="usage">ai-train</prohibits>` +
        `<payment type="free"/></license>
  </content>`,
    )
    .join('');
  const xml = readFileSync(path.join(ROOT, 'test/fixtures/rsl/11-skeleton-all-elements.xml'), 'utf8').replace(
    '</rsl>',
    `${scopes}\n</rsl>`,
  );
  return JSON.stringify({ resource: 'https://pub.example/news/today', purpose: 'ai-input', xml });
}

/** Quotes, offers and signs `n` purchases before the clock starts; then redeems them 50 at a time. */
async function redemptions(parts: LocalWorldParts, service: ServiceProcess, n: number) {
  const signed: { url: string; headers: Record<string, string> }[] = [];
  const quoteBody = JSON.stringify({
    resource: DECLARED,
    purpose: 'ai-input',
    tier: 'fresh',
    max_total_micro: '20000',
  });
  await Promise.all(
    Array.from({ length: 10 }, async (_, lane) => {
      for (let i = lane; i < n; i += 10) {
        const q = (await (
          await fetch(`${service.url}/v1/rights/quote`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: quoteBody,
          })
        ).json()) as { claim_token: string; report_url: string };
        const offer = await fetch(`${service.url}${q.report_url}`, { headers: { 'x-service-claim': q.claim_token } });
        await offer.arrayBuffer();
        const buyer = parts.devnet.buyers[i % parts.devnet.buyers.length]!;
        const payment = await signPayment(buyer.privateKey, offer.headers.get('payment-required')!);
        signed.push({
          url: `${service.url}${q.report_url}`,
          headers: { 'x-service-claim': q.claim_token, 'payment-signature': payment },
        });
      }
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const cpu0 = cpuSeconds(service.child.pid!);
  const rss = rssSampler(service.child.pid!);
  const t0 = performance.now();
  const mono0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: REDEMPTION_CONCURRENCY }, async () => {
      while (next < signed.length) {
        const s = signed[next++]!;
        const a = performance.now();
        const res = await fetch(s.url, { headers: s.headers });
        await res.arrayBuffer();
        if (res.status === 200) latencies.push(performance.now() - a);
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(service.child.pid!) - cpu0;
  // The paid window on the monotonic clock a V8 CPU profile's timestamps use (µs), to read only it.
  console.log(`paid window (monotonic µs): ${mono0 / 1000n}-${process.hrtime.bigint() / 1000n}`);
  latencies.sort((x, y) => x - y);
  const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  return {
    redemptions: latencies.length,
    errors,
    per_second: Math.round(latencies.length / seconds),
    service_side_per_second: cpu > 0 ? Math.round(latencies.length / cpu) : null,
    service_cpu_ms_per_redemption: Math.round(((cpu * 1000) / Math.max(1, latencies.length)) * 10) / 10,
    p50_ms: q(0.5),
    p99_ms: q(0.99),
    peak_rss_mb: rss.stop(),
  };
}

async function benchStore(
  store: string,
  storeUrl: string | ((dataDir: string) => string) | undefined,
  bare: string,
  rows: Row[],
) {
  const parts = await startLocalParts(publisherSite(), 'rights-bench-http-');
  let service: ServiceProcess | undefined;
  try {
    const eventStoreUrl = typeof storeUrl === 'function' ? storeUrl(parts.dataDir) : storeUrl;
    const env = {
      ...localServiceEnv({ ...parts, logLevel: 'info', ...(eventStoreUrl ? { eventStoreUrl } : {}) }),
      // One client sends everything here: per-address limits would measure 429s, not the paths.
      ...UNLIMITED,
    };
    service = await startServiceProcess(env, () => {}, {
      compiled: true,
      dropOutputAfterStart: true,
      // BENCH_HTTP_CPU_PROF=<dir>: a V8 CPU profile of the service process, written when it stops.
      ...(process.env.BENCH_HTTP_CPU_PROF
        ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_HTTP_CPU_PROF}`] }
        : {}),
    });
    const quoteBody = JSON.stringify({
      resource: DECLARED,
      purpose: 'ai-input',
      tier: 'fresh',
      max_total_micro: '20000',
    });
    await fetch(`${service.url}/v1/rights/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: quoteBody,
    }); // warm the fetch cache
    const targets = [
      { target: 'GET /v1/capabilities', url: `${service.url}/v1/capabilities` },
      {
        target: 'POST /v1/rights/inspect',
        url: `${service.url}/v1/rights/inspect`,
        method: 'POST' as const,
        body: inspectBody(),
      },
      {
        target: 'POST /v1/rights/quote',
        url: `${service.url}/v1/rights/quote`,
        method: 'POST' as const,
        body: quoteBody,
      },
    ].filter((t) => !TARGETS || TARGETS.some((name) => t.target.includes(name)));
    // Warm-up, not measured: the first target would otherwise be timed while V8 still compiles its path.
    await cannon({ url: bare, connections: 50, seconds: WARMUP_SECONDS });
    for (const t of targets) await cannon({ ...t, connections: 50, seconds: WARMUP_SECONDS });
    for (const connections of CONNECTIONS) {
      const ceiling = await cannon({ url: bare, connections });
      rows.push({ store, target: 'bare Koa (1 KB JSON)', connections, ...ceiling, vs_bare_koa: 1, peak_rss_mb: null });
      for (const t of targets) {
        const rss = rssSampler(service.child.pid!);
        const cpu0 = cpuSeconds(service.child.pid!);
        const r = await cannon({ ...t, connections });
        const cpu = cpuSeconds(service.child.pid!) - cpu0;
        rows.push({
          store,
          target: t.target,
          connections,
          ...r,
          vs_bare_koa: Math.round((r.ok_per_s / ceiling.ok_per_s) * 1000) / 1000,
          peak_rss_mb: rss.stop(),
          service_cpu_ms_per_request: Math.round(((cpu * 1000) / Math.max(1, r.requests)) * 100) / 100,
        });
        console.log(JSON.stringify(rows.at(-1)));
      }
    }
    const paid = REDEMPTIONS > 0 ? await redemptions(parts, service, REDEMPTIONS) : null;
    console.log(JSON.stringify({ store, paid }));
    return paid;
  } finally {
    await service?.stop();
    await parts.closeAll();
  }
}

const koa = await startBareKoa();
const rows: Row[] = [];
const paid: Record<string, unknown> = {};
try {
  if (STORES.includes('embedded')) paid.embedded = await benchStore('embedded', undefined, koa.url, rows);
  if (STORES.includes('pglite'))
    paid.pglite = await benchStore('pglite', (dir) => `pglite:${path.join(dir, 'events')}`, koa.url, rows);
  if (pgUrl && STORES.includes('postgres')) {
    const schema = freshSchemaName();
    try {
      paid.postgres = await benchStore('postgres', withSchema(pgUrl, schema), koa.url, rows);
    } finally {
      await dropSchema(pgUrl, schema);
    }
  } else console.log('PostgreSQL: skipped (set PG_TEST_URL or BENCH_PG_URL)');
} finally {
  koa.child.kill('SIGTERM');
}

console.log(`\n${SECONDS} s per target, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`);
console.log(
  '| store | target | conns | req/s | 2xx/s | p50 ms | p99 ms | errors | timeouts | non-2xx | 2xx vs bare Koa ' +
    '| peak RSS MB | service CPU ms/req |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.store} | ${r.target} | ${r.connections} | ${r.req_per_s} | ${r.ok_per_s} | ${r.p50_ms} | ${r.p99_ms} | ` +
      `${r.errors} | ${r.timeouts} | ${r.non_2xx} | ${r.vs_bare_koa ?? ''} | ${r.peak_rss_mb ?? ''} | ` +
      `${r.service_cpu_ms_per_request ?? ''} |`,
  );
}
for (const [store, p] of Object.entries(paid)) console.log(`paid redemption (${store}): ${JSON.stringify(p)}`);
const out = path.resolve(ROOT, 'bench/results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'http.json'),
  JSON.stringify(
    {
      benchmark: 'http',
      measured_at: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      seconds: SECONDS,
      rows,
      paid,
    },
    null,
    2,
  ) + '\n',
);
