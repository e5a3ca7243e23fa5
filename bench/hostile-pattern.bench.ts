// npm run bench:hostile — issue 22's hostile publisher pattern cannot stall the service. A real service in
// its own process (compiled, as `npm start` runs it; local devnet, embedded store, rate limits lifted since
// every client here is 127.0.0.1) and a real HTTPS publisher serving `<content url="/*a*a*a*ab">`. First
// one quote alone (its latency), then ROUNDS rounds of 8 quotes and 8 inspections for 2,000-octet paths at
// once while /healthz is probed every PROBE_MS. Prints latencies and probe percentiles and writes
// bench/results/hostile-pattern.json. Targets: a quote answers within 100 ms; /healthz p99 < 50 ms.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { localServiceEnv, startLocalParts } from '../ops/world/local-world.js';
import { startServiceProcess } from '../test/support/service-process.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';
import { measureReportInflation } from './support/report-inflation.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const PROBE_MS = Number(process.env.PROBE_MS ?? 10);
const NS = 'https://rslstandard.org/rsl';
// PATTERN=/b* runs the same load with a pattern that costs nothing: the control that shows what the
// hostile pattern itself adds.
const PATTERN = process.env.PATTERN ?? '/*a*a*a*ab';
const hostileXml =
  `<rsl xmlns="${NS}">` +
  `<content url="/"><license><permits type="usage">all</permits><payment type="free"/></license></content>` +
  `<content url="${PATTERN}"><license><prohibits type="usage">all</prohibits></license></content></rsl>`;

const percentile = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! * 10) / 10;
};
const summary = (xs: number[]) => ({
  n: xs.length,
  p50_ms: percentile(xs, 50),
  p99_ms: percentile(xs, 99),
  max_ms: percentile(xs, 100),
});

const parts = await startLocalParts(
  {
    'pub.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nLicense: https://pub.example/l.xml\n' },
      '/l.xml': { type: 'application/rsl+xml', body: hostileXml },
    },
  },
  'rights-bench-hostile-',
);
// BENCH_STORE=postgres: the service on PostgreSQL (PG_TEST_URL, a fresh schema) instead of the embedded store,
// whose queries run synchronously on the service's own event loop.
const pgUrl = process.env.BENCH_STORE === 'postgres' ? process.env.PG_TEST_URL : undefined;
if (process.env.BENCH_STORE === 'postgres' && !pgUrl) throw new Error('BENCH_STORE=postgres needs PG_TEST_URL');
const schema = freshSchemaName();
const eventStoreUrl = pgUrl ? withSchema(pgUrl, schema) : undefined;
const env = localServiceEnv({ ...parts, logLevel: 'info', ...(eventStoreUrl ? { eventStoreUrl } : {}) });
const service = await startServiceProcess(env, undefined, {
  compiled: true,
  dropOutputAfterStart: true,
});
try {
  const timed = async (url: string, body: unknown) => {
    const t0 = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    return performance.now() - t0;
  };
  const quote = (p: string) =>
    timed(`${service.url}/v1/rights/quote`, {
      resource: `https://pub.example${p}`,
      purpose: 'ai-train',
      tier: 'fresh',
      max_total_micro: '200000',
    });
  const inspect = (p: string) =>
    timed(`${service.url}/v1/rights/inspect`, {
      resource: `https://pub.example${p}`,
      purpose: 'ai-train',
      xml: hostileXml,
    });

  // The issue's own request, alone (the first fetches the publisher's documents; later ones are warm).
  const single: number[] = [];
  for (let i = 0; i < 20; i++) single.push(await quote('/' + 'a'.repeat(650 + i)));

  const health: number[] = [];
  const quotes: number[] = [];
  const inspections: number[] = [];
  // The probe runs in a thread of its own: this process also serves the publishers' TLS, and a probe on
  // its event loop would time this process's work, not the service's.
  const PROBE = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, every } = workerData;
    const times = [];
    let stop = false;
    parentPort.on('message', () => { stop = true; });
    (async () => {
      while (!stop) {
        const t0 = performance.now();
        await (await fetch(url)).arrayBuffer();
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, every));
      }
      parentPort.postMessage(times);
    })();
  `;
  const prober = new Worker(PROBE, { eval: true, workerData: { url: `${service.url}/healthz`, every: PROBE_MS } });
  const probe = new Promise<void>((resolve, reject) => {
    prober.once('message', (times: number[]) => {
      health.push(...times);
      void prober.terminate();
      resolve();
    });
    prober.once('error', reject);
  });
  for (let round = 0; round < ROUNDS; round++) {
    const paths = Array.from({ length: 8 }, (_, i) => '/' + 'a'.repeat(2000 - i - round));
    const [q, n] = await Promise.all([Promise.all(paths.map(quote)), Promise.all(paths.map(inspect))]);
    quotes.push(...q);
    inspections.push(...n);
  }
  prober.postMessage('stop');
  await probe;

  const result = {
    benchmark: 'hostile-pattern',
    measured_at: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
    pattern: PATTERN,
    store: pgUrl ? 'postgres' : 'embedded',
    single_quote_650: summary(single.slice(1)),
    concurrent: { rounds: ROUNDS, quotes: summary(quotes), inspections: summary(inspections) },
    healthz: summary(health),
    target: 'a hostile quote answers within 100 ms; /healthz p99 < 50 ms during 8 quotes + 8 inspections',
    met: percentile(single.slice(1), 99) < 100 && percentile(health, 99) < 50,
  };
  console.log(`hostile pattern: ${ROUNDS} rounds of 8 quotes + 8 inspections at once (paths of ~2,000 octets)`);
  console.table({
    'quote alone (650 a)': result.single_quote_650,
    'quote (8 at once)': result.concurrent.quotes,
    'inspect (8 at once)': result.concurrent.inspections,
    healthz: result.healthz,
  });
  console.log(result.met ? 'target met' : 'TARGET MISSED');
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  const file = `hostile-pattern${process.env.PATTERN ? '-control' : ''}${pgUrl ? '-postgres' : ''}.json`;
  await writeFile(path.join(root, 'bench/results', file), JSON.stringify(result, null, 2) + '\n');
  console.log(`wrote bench/results/${file}`);
  process.exitCode = result.met ? 0 : 1;
} finally {
  await service.stop();
  await parts.closeAll();
  if (pgUrl) await dropSchema(pgUrl, schema);
}

// Report inflation (docs/wire.md §16): a publisher's 480 KB Content-Signal line and a hundred long reserving
// lines, one report bought on each, its entry's size against the documented maximum. Its own publishers
// and service (bench/support/report-inflation.ts); results in their own file.
{
  const inflation = await measureReportInflation();
  console.log(`report inflation: a report entry is at most ${inflation.max_entry_bytes} bytes (docs/wire.md §16)`);
  console.table(inflation.cases);
  console.log(
    `service RSS across the two purchases: ${Math.round(inflation.service_rss_growth_bytes / 1024)} KiB; ` +
      (inflation.met ? 'within the maximum' : 'MAXIMUM EXCEEDED'),
  );
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const measured = {
    benchmark: 'hostile-report-inflation',
    measured_at: new Date().toISOString(),
    node: process.version,
    load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
    ...inflation,
  };
  await writeFile(
    path.join(root, 'bench/results/hostile-report-inflation.json'),
    JSON.stringify(measured, null, 2) + '\n',
  );
  console.log('wrote bench/results/hostile-report-inflation.json');
  if (!inflation.met) process.exitCode = 1;
}
