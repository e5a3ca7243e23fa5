// npm run bench:hostile — hostile publishers cannot stall the service. A real service in its own process
// (compiled, as `npm start` runs it; local devnet, embedded store, rate limits lifted since every client
// here is 127.0.0.1) and real HTTPS publishers: one serving `<content url="/*a*a*a*ab">` (a backtracking
// trap for a naive matcher; docs/decisions.md), one a
// robots.txt of `Allow: /` and ~38,000 `Disallow: *q<n>` lines with a Content-Usage line, one a
// tdmrep.json of ~23,000 `*z<n>` rules (the AI-use signal readers). /healthz is probed every PROBE_MS,
// first idle (the baseline), then during each case: the RSL pattern (one quote alone, then ROUNDS rounds of
// 8 quotes and 8 inspections for 2,000-octet paths), the robots groups and the tdmrep.json rules (ROUNDS
// rounds of 8 quotes for 2,000-octet paths), 5 concurrent gate requests of four hostile URLs (answered 402,
// after reading them, as a buyer that never pays), and 5 concurrent revalidations of four hostile
// checkpoints (bought once first). Prints latencies and probe percentiles and writes
// bench/results/hostile-pattern.json. Targets: a hostile quote answers within 100 ms; in every case /healthz
// p99 is within 50 ms of the idle baseline measured in the same run.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { localServiceEnv, startLocalParts } from '../ops/world/local-world.js';
import { startServiceProcess } from '../test/support/service-process.js';
import { dropSchema, freshSchemaName, withSchema } from '../test/store/fixtures/store-under-test.js';
import { gateHeaders, newKey } from '../test/surfaces/support/gate-buyer.js';
import { signPayment } from '../test/support/pay.js';
import { measureReportInflation } from './support/report-inflation.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const PROBE_MS = Number(process.env.PROBE_MS ?? 10);
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000);
/** /healthz p99 during a case may exceed the idle baseline's by at most this. */
const HEALTHZ_MARGIN_MS = 50;
const NS = 'https://rslstandard.org/rsl';
// PATTERN=/b* runs the same load with a pattern that costs nothing: the control that shows what the
// hostile pattern itself adds.
const PATTERN = process.env.PATTERN ?? '/*a*a*a*ab';
const hostileXml =
  `<rsl xmlns="${NS}">` +
  `<content url="/"><license><permits type="usage">all</permits><payment type="free"/></license></content>` +
  `<content url="${PATTERN}"><license><prohibits type="usage">all</prohibits></license></content></rsl>`;

// The signal readers' hostile publishers (robots.txt up to the parse limit; tdmrep.json up to its byte limit).
const hostileRobots =
  `User-agent: *\nAllow: /\nContent-Usage: train-ai=n\nLicense: https://robots.example/l.xml\n` +
  Array.from({ length: 38_000 }, (_, i) => `Disallow: *q${i}`).join('\n');
const TDMREP_MAX_BYTES = 500 * 1024;
const tdmrepRules: string[] = [];
for (let i = 0, size = 2; ; i++) {
  // The reported spelling: a location alone (no tdm-reservation), ~23,000 rules in 500 KiB.
  const rule = `{"location":"*z${i}"}`;
  if (size + rule.length + 1 > TDMREP_MAX_BYTES) break;
  tdmrepRules.push(rule);
  size += rule.length + 1;
}
const hostileTdmrep = `[${tdmrepRules.join(',')}]`;
const freeXml =
  `<rsl xmlns="${NS}"><content url="/"><license><permits type="usage">all</permits>` +
  `<payment type="free"/></license></content></rsl>`;

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
    'robots.example': {
      '/robots.txt': { type: 'text/plain', body: hostileRobots },
      '/l.xml': { type: 'application/rsl+xml', body: freeXml },
    },
    'tdm.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nLicense: https://tdm.example/l.xml\n' },
      '/l.xml': { type: 'application/rsl+xml', body: freeXml },
      '/.well-known/tdmrep.json': { type: 'application/json', body: hostileTdmrep },
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
  const send = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const t0 = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { ms: performance.now() - t0, status: res.status, text, headers: res.headers };
  };
  const timed = async (url: string, body: unknown, expected = 200, headers: Record<string, string> = {}) => {
    const r = await send(url, body, headers);
    if (r.status !== expected) throw new Error(`${url} answered ${r.status}: ${r.text.slice(0, 300)}`);
    return r.ms;
  };
  const quoteAt = (origin: string) => (p: string) =>
    timed(`${service.url}/v1/rights/quote`, {
      resource: `https://${origin}${p}`,
      purpose: 'ai-train',
      tier: 'fresh',
      max_total_micro: '200000',
    });
  const quote = quoteAt('pub.example');
  const inspect = (p: string) =>
    timed(`${service.url}/v1/rights/inspect`, {
      resource: `https://pub.example${p}`,
      purpose: 'ai-train',
      xml: hostileXml,
    });
  const longPaths = (n: number, salt: number, tag = 'a') =>
    Array.from({ length: n }, (_, i) => '/' + tag.repeat(2000 - i - salt));

  // /healthz, probed from a thread of its own for the whole run: this process also serves the publishers'
  // TLS, and a probe on its event loop would time this process's work, not the service's. Each probe counts
  // for the case under way when it started; the first (a new connection) counts for none.
  const PROBE = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, every } = workerData;
    const times = {};
    let phase = null;
    let stop = false;
    parentPort.on('message', (m) => { if (m === 'stop') stop = true; else phase = m; });
    (async () => {
      await (await fetch(url)).arrayBuffer();
      parentPort.postMessage('ready');
      while (!stop) {
        const at = phase;
        const t0 = performance.now();
        await (await fetch(url)).arrayBuffer();
        if (at !== null && at === phase) (times[at] ??= []).push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, every));
      }
      parentPort.postMessage(times);
    })();
  `;
  const prober = new Worker(PROBE, { eval: true, workerData: { url: `${service.url}/healthz`, every: PROBE_MS } });
  const probes = new Promise<Record<string, number[]>>((resolve, reject) => {
    prober.on('message', (m: 'ready' | Record<string, number[]>) => {
      if (m === 'ready') return;
      void prober.terminate();
      resolve(m);
    });
    prober.once('error', reject);
  });
  await new Promise<void>((resolve) => prober.once('message', () => resolve()));
  /** Runs `load` as the case `name`: /healthz probes made meanwhile are that case's. */
  const probed = async <T>(name: string, load: () => Promise<T>): Promise<T> => {
    prober.postMessage(name);
    const out = await load();
    prober.postMessage('');
    return out;
  };

  // The idle baseline, in this run, on this (shared) machine.
  await probed('idle', () => new Promise((r) => setTimeout(r, IDLE_MS)));

  // The RSL backtracking pattern: the reported request, alone (the first fetches the publisher's documents), then
  // quotes and inspections at once.
  const single: number[] = [];
  for (let i = 0; i < 20; i++) single.push(await quote('/' + 'a'.repeat(650 + i)));
  const rsl = await probed('rsl', async () => {
    const quotes: number[] = [];
    const inspections: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const paths = longPaths(8, round);
      const [q, n] = await Promise.all([Promise.all(paths.map(quote)), Promise.all(paths.map(inspect))]);
      quotes.push(...q);
      inspections.push(...n);
    }
    return { quotes, inspections };
  });

  // The signal readers: quotes for 2,000-octet paths on the robots.txt and tdmrep.json publishers.
  const quotesOn = (origin: string, tag: string) =>
    probed(origin, async () => {
      const quotes: number[] = [];
      for (let round = 0; round < ROUNDS; round++)
        quotes.push(...(await Promise.all(longPaths(8, round, tag).map(quoteAt(origin)))));
      return quotes;
    });
  const robotsCase = await quotesOn('robots.example', 'q');
  const tdmrepCase = await quotesOn('tdm.example', 'z');

  // Four hostile URLs, two on each publisher: gate requests from a buyer that never pays (each is read, then
  // answered 402), and revalidations of the checkpoints of one gate report bought first.
  const buyerKey = parts.devnet.buyers[0]!.privateKey;
  const gateUrl = `${service.url}/v1/rights/ingestion-gate`;
  const hostileUrls = (salt: number) => [
    ...longPaths(2, salt, 'q').map((p) => `https://robots.example${p}`),
    ...longPaths(2, salt, 'z').map((p) => `https://tdm.example${p}`),
  ];
  const gateBody = (salt: number) => ({ resources: hostileUrls(salt), purpose: 'ai-train', max_total_micro: '200000' });
  const gateOffer = async (salt: number) => {
    const body = gateBody(salt);
    const headers = await gateHeaders({
      url: service.url,
      body,
      key: newKey(),
      payerKey: buyerKey,
      coveredOrigins: parts.origins.origins,
    });
    return { body, headers, offer: await send(gateUrl, body, headers) };
  };
  const gateCase = await probed('gate', async () => {
    const times: number[] = [];
    for (let round = 0; round < Math.max(1, Math.floor(ROUNDS / 4)); round++) {
      const offers = await Promise.all(Array.from({ length: 5 }, (_, i) => gateOffer(100 + round * 5 + i)));
      for (const o of offers) if (o.offer.status !== 402) throw new Error(`gate answered ${o.offer.status}`);
      times.push(...offers.map((o) => o.offer.ms));
    }
    return times;
  });

  const bought = await gateOffer(7);
  const payment = await signPayment(buyerKey, bought.offer.headers.get('payment-required')!);
  const paid = await send(gateUrl, bought.body, { ...bought.headers, 'payment-signature': payment });
  if (paid.status !== 200) throw new Error(`the gate purchase answered ${paid.status}: ${paid.text.slice(0, 300)}`);
  const checkpoints = (
    JSON.parse(paid.text) as { report: { resources: { checkpoint: unknown }[] } }
  ).report.resources.map((r) => r.checkpoint);
  const revalidateCase = await probed('revalidate', async () => {
    const times: number[] = [];
    for (let round = 0; round < Math.max(1, Math.floor(ROUNDS / 4)); round++) {
      const body = { checkpoints, max_total_micro: '200000' };
      times.push(
        ...(await Promise.all(
          Array.from({ length: 5 }, () =>
            timed(`${service.url}/v1/rights/revalidate`, body, 402, { 'x-service-request': newKey() }),
          ),
        )),
      );
    }
    return times;
  });

  // Report inflation (a publisher statement copied into every report it appears in): its case, the
  // report's size beside its documented maximum, belongs here, measured with the same probe.

  prober.postMessage('stop');
  const health = await probes;
  const healthOf = (name: string) => health[name] ?? [];
  const baseline = percentile(healthOf('idle'), 99);
  const within = (name: string) => percentile(healthOf(name), 99) - baseline <= HEALTHZ_MARGIN_MS;
  const cases = {
    rsl_pattern: {
      quotes: summary(rsl.quotes),
      inspections: summary(rsl.inspections),
      healthz: summary(healthOf('rsl')),
    },
    robots_groups: { quotes: summary(robotsCase), healthz: summary(healthOf('robots.example')) },
    tdmrep_rules: { quotes: summary(tdmrepCase), healthz: summary(healthOf('tdm.example')) },
    gate_four_urls: { requests: summary(gateCase), healthz: summary(healthOf('gate')) },
    revalidate_four_checkpoints: { requests: summary(revalidateCase), healthz: summary(healthOf('revalidate')) },
  };
  const healthWithin = ['rsl', 'robots.example', 'tdm.example', 'gate', 'revalidate'].every(within);
  const result = {
    benchmark: 'hostile-pattern',
    measured_at: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
    pattern: PATTERN,
    store: pgUrl ? 'postgres' : 'embedded',
    hostile_documents: {
      robots_txt: { disallow_lines: 38_000, bytes: Buffer.byteLength(hostileRobots) },
      tdmrep_json: { rules: tdmrepRules.length, bytes: Buffer.byteLength(hostileTdmrep) },
    },
    single_quote_650: summary(single.slice(1)),
    idle_healthz: summary(healthOf('idle')),
    rounds: ROUNDS,
    cases,
    target:
      `a hostile quote answers within 100 ms; in every case /healthz p99 within ${HEALTHZ_MARGIN_MS} ms ` +
      "of the run's idle baseline",
    met: percentile(single.slice(1), 99) < 100 && healthWithin,
  };
  console.log(`hostile publishers: ${ROUNDS} rounds (paths of ~2,000 octets); idle /healthz p99 ${baseline} ms`);
  console.table({
    'idle healthz': result.idle_healthz,
    'quote alone (650 a)': result.single_quote_650,
    'rsl: quote (8 at once)': cases.rsl_pattern.quotes,
    'rsl: inspect (8 at once)': cases.rsl_pattern.inspections,
    'rsl: healthz': cases.rsl_pattern.healthz,
    'robots: quote (8 at once)': cases.robots_groups.quotes,
    'robots: healthz': cases.robots_groups.healthz,
    'tdmrep: quote (8 at once)': cases.tdmrep_rules.quotes,
    'tdmrep: healthz': cases.tdmrep_rules.healthz,
    'gate x5 (4 URLs)': cases.gate_four_urls.requests,
    'gate: healthz': cases.gate_four_urls.healthz,
    'revalidate x5 (4)': cases.revalidate_four_checkpoints.requests,
    'revalidate: healthz': cases.revalidate_four_checkpoints.healthz,
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
