// npm run bench:rss — the service process's own memory (VmRSS from /proc/<pid>/status) after start and
// after 2,000 quotes at 500 connections, started as `npm start` runs it (compiled into build/) in
// development (the devnet as its child process), the same under tsx, and with DEVNET=off against a devnet
// started outside it. The devnet child's RSS is reported beside it. Embedded store in a fresh temp DATA_DIR, real HTTPS
// publishers on loopback. Prints a table, writes bench/results/service-rss.json.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnetProcess } from '../src/devnet/process.js';
import { DECLARED, publisherSite } from '../test/support/publishers.js';
import { startServiceProcess } from '../test/support/service-process.js';
import { startTestOrigins } from '../src/devnet/https-origin.js';

// The target (docs/decisions.md, "The embedded engine") is the peak under 500 connections: that many
// quotes at once, each a new purchase.
const QUOTES = Number(process.env.BENCH_RSS_QUOTES ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_RSS_CONNECTIONS ?? 500);
// One client sends everything here: the per-address limit would answer 429 after its burst and measure nothing.
const UNLIMITED = { RATE_LIMIT_QUOTE_PER_MINUTE: '1000000000', RATE_LIMIT_QUOTE_BURST: '1000000000' };

const kib = async (pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number | null> => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
};

async function quotes(url: string, n: number): Promise<number> {
  const body = JSON.stringify({ resource: DECLARED, purpose: 'ai-input', tier: 'fresh', max_total_micro: '20000' });
  let left = n;
  let ok = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const res = await fetch(`${url}/v1/rights/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await res.arrayBuffer();
        if (res.ok) ok++;
      }
    }),
  );
  return ok;
}

interface Row {
  mode: string;
  service_rss_after_start_mb: number | null;
  service_rss_after_quotes_mb: number | null;
  service_peak_rss_mb: number | null;
  devnet_rss_mb: number | null;
  quotes_ok: number;
}

async function measure(
  mode: string,
  chainEnv: Record<string, string>,
  originsEnv: Record<string, string>,
  compiled = true,
): Promise<Row> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-bench-rss-'));
  let logs = '';
  const service = await startServiceProcess(
    { ...originsEnv, ...chainEnv, ...UNLIMITED, DATA_DIR: dataDir, RECOVERY_INTERVAL_MS: '600000' },
    (s) => {
      logs += s;
    },
    { compiled },
  );
  try {
    const pid = service.child.pid!;
    const devnetPid = Number(/"devnet_pid":(\d+)/.exec(logs)?.[1] ?? NaN);
    await new Promise((r) => setTimeout(r, 2000));
    const afterStart = await kib(pid, 'VmRSS');
    const ok = await quotes(service.url, QUOTES);
    await new Promise((r) => setTimeout(r, 1000));
    return {
      mode,
      service_rss_after_start_mb: afterStart,
      service_rss_after_quotes_mb: await kib(pid, 'VmRSS'),
      service_peak_rss_mb: await kib(pid, 'VmHWM'),
      devnet_rss_mb: Number.isNaN(devnetPid) ? null : await kib(devnetPid, 'VmRSS'),
      quotes_ok: ok,
    };
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const origins = await startTestOrigins(publisherSite());
const rows: Row[] = [];
try {
  // Development as a newcomer runs it: no RPC_URL, so main.ts starts the devnet (a child process
  // since the purchase core; inside the service process before it).
  rows.push(
    await measure('development (devnet started by main.ts)', { DEVNET: '', RPC_URL: '', NODE_ENV: '' }, origins.env),
  );
  // The same under tsx, as the tests run it: what compiling ahead of time saves.
  rows.push(
    await measure(
      'development, under tsx (before build/)',
      { DEVNET: '', RPC_URL: '', NODE_ENV: '' },
      origins.env,
      false,
    ),
  );
  const devnet = await startDevnetProcess();
  try {
    const external = {
      DEVNET: 'off',
      RPC_URL: devnet.rpcUrl,
      PAY_TO: devnet.payTo,
      RELAYER_PRIVATE_KEY: devnet.relayer.privateKey,
      NODE_ENV: '',
    };
    const row = await measure('DEVNET=off, external devnet', external, origins.env);
    rows.push({ ...row, devnet_rss_mb: await kib(devnet.child.pid!, 'VmRSS') });
  } finally {
    await devnet.stop();
  }
} finally {
  await origins.close();
}

console.log(`\nservice RSS (MB), ${QUOTES} quotes at ${CONCURRENCY} connections, embedded store\n`);
console.log('| mode | after start | after quotes | peak | devnet process | quotes ok |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(
    `| ${r.mode} | ${r.service_rss_after_start_mb} | ${r.service_rss_after_quotes_mb} | ${r.service_peak_rss_mb} | ` +
      `${r.devnet_rss_mb ?? '(in the service)'} | ${r.quotes_ok} |`,
  );
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), './results');
await mkdir(out, { recursive: true });
await writeFile(
  path.join(out, 'service-rss.json'),
  JSON.stringify({ at: new Date().toISOString(), quotes: QUOTES, concurrency: CONCURRENCY, rows }, null, 2) + '\n',
);
