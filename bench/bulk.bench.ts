// npm run bench:bulk — a crawl checked in one command: 1,000 URLs over 50 covered HTTPS publishers on
// loopback (test/support/publishers.ts `crawlSite`), the devnet mining every 2 s as Base, the service in a
// process of its own with the default rate limits, and the buyer's bulk check as a process of its own too
// (`rights-preflight check`), so its CPU is its own. Records wall time, the blocks the transfers took, the
// 429s met (goal 0) and the buyer's CPU per report in bench/results/bulk.json (goal: ≤ 60 s for the 1,000).
//
// The buyer is a command line: `--buyer ts` (default) runs packages/buyer's CLI; another language's bulk check
// is added as one more entry of BUYERS taking the same pins, URL file and manifest (packages/wire/vectors/README.md).
//
//   BENCH_BULK_URLS=1000  BENCH_BULK_PUBLISHERS=50  BENCH_BULK_BLOCK_MS=2000  BENCH_BULK_CONCURRENCY=16
//   npm run bench:bulk -- --buyer ts
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPublicClient, http, type Hex } from 'viem';
import { localServiceEnv, startLocalParts } from '../ops/world/local-world.js';
import { CRAWL_PAGE, crawlSite } from '../test/support/publishers.js';
import { startServiceProcess } from '../test/support/service-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const URLS = Number(process.env.BENCH_BULK_URLS ?? 1000);
const PUBLISHERS = Number(process.env.BENCH_BULK_PUBLISHERS ?? 50);
const BLOCK_MS = Number(process.env.BENCH_BULK_BLOCK_MS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_BULK_CONCURRENCY ?? 16);
const buyerArg = process.argv.indexOf('--buyer');
const BUYER = buyerArg >= 0 ? process.argv[buyerArg + 1]! : 'ts';

/** How to run a buyer's bulk check: the command, given the files and the environment with the pins. */
interface BulkBuyer {
  command(files: { urls: string; manifest: string }, budget: bigint): { cmd: string; args: string[] };
}
/** The bulk check's command line, the same for every buyer: only the program before it differs. */
const checkArgs = (f: { urls: string; manifest: string }, budget: bigint) => [
  'check',
  f.urls,
  '--purpose',
  'ai-input',
  '--budget',
  budget.toString(),
  '--concurrency',
  String(CONCURRENCY),
  '--manifest',
  f.manifest,
  '--json',
];
const BUYERS: Record<string, BulkBuyer> = {
  // The Python buyer (packages/python; its venv is made by npm test or `python3 -m venv`): the same command line.
  py: {
    command: (f, budget) => ({
      cmd: path.join(ROOT, 'packages/python/.venv/bin/python'),
      args: ['-m', 'rights_preflight', ...checkArgs(f, budget)],
    }),
  },
  ts: {
    command: (f, budget) => ({
      cmd: process.execPath,
      args: [path.join(ROOT, 'packages/buyer/bin/rights-preflight.mjs'), ...checkArgs(f, budget)],
    }),
  },
};

/** CPU seconds (user + system) of a finished child, from its own rusage as Node reports it. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; stdout: string; stderr: string; cpuMs: number }>((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let cpuMs = 0;
    const sample = setInterval(() => {
      try {
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpuMs = ((Number(f[11]) + Number(f[12])) / 100) * 1000;
      } catch {
        /* gone */
      }
    }, 200);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sample);
      resolve({ code: code ?? 1, stdout, stderr, cpuMs });
    });
  });
}

async function main() {
  const buyer = BUYERS[BUYER];
  if (!buyer) throw new Error(`--buyer ${BUYER}: one of ${Object.keys(BUYERS).join(', ')}`);
  const pages = Math.ceil(URLS / PUBLISHERS);
  const parts = await startLocalParts(crawlSite(PUBLISHERS, pages), 'rights-bench-bulk-', { blockMs: BLOCK_MS });
  const work = await mkdtemp(path.join(os.tmpdir(), 'rights-bulk-'));
  try {
    const env = {
      ...localServiceEnv({ ...parts, logLevel: 'info' }),
      CHAIN_BLOCK_MS: String(BLOCK_MS),
      // The defaults, as a deployment has them (a local world raises them for its tests).
      RATE_LIMIT_QUOTE_PER_MINUTE: '30',
      RATE_LIMIT_QUOTE_BURST: '10',
      RATE_LIMIT_INSPECT_PER_MINUTE: '60',
      RATE_LIMIT_INSPECT_BURST: '20',
      RATE_LIMIT_PREFLIGHT_PER_MINUTE: '30',
      RATE_LIMIT_PREFLIGHT_BURST: '10',
      RATE_LIMIT_GATE_PER_MINUTE: '30',
      RATE_LIMIT_GATE_BURST: '10',
    };
    const service = await startServiceProcess(env, () => {});
    parts.onClose(() => service.stop());
    const caps = (await (await fetch(`${service.url}/v1/capabilities`)).json()) as {
      evidence: { keys: { public_key: string }[] };
    };
    const urls = Array.from({ length: URLS }, (_, i) => CRAWL_PAGE(i % PUBLISHERS, Math.floor(i / PUBLISHERS)));
    const files = { urls: path.join(work, 'urls.txt'), manifest: path.join(work, 'crawl.jsonl') };
    await writeFile(files.urls, `${urls.join('\n')}\n`);
    const payer = parts.devnet.buyers[0]!;
    const budget = 100_000_000n; // 100 USDC, what the devnet gives each buyer
    const client = createPublicClient({ transport: http(parts.devnet.rpcUrl) });
    const transfersBefore = (await parts.devnet.transfers(payer.address as Hex, parts.devnet.payTo)).length;
    const blockBefore = await client.getBlockNumber();
    const { cmd, args } = buyer.command(files, budget);
    const started = performance.now();
    const r = await run(cmd, args, {
      ...process.env,
      RIGHTS_SERVICE_URL: service.url,
      BUYER_NETWORK: parts.devnet.network,
      BUYER_ASSET: parts.devnet.usdc,
      BUYER_RECIPIENT: parts.devnet.payTo,
      BUYER_EVIDENCE_KEY: caps.evidence.keys[0]!.public_key,
      BUYER_PRIVATE_KEY: payer.privateKey,
      BUYER_CHECKPOINT_KEY: '6b'.repeat(32),
    });
    const wallMs = performance.now() - started;
    const blockAfter = await client.getBlockNumber();
    const transfers = (await parts.devnet.transfers(payer.address as Hex, parts.devnet.payTo)).slice(transfersBefore);
    const summary = JSON.parse(r.stdout || '{}') as { bought?: number; http_429?: number; spent_micro?: string };
    const lines = (await readFile(files.manifest, 'utf8')).trim().split('\n').length;
    const result = {
      buyer: BUYER,
      urls: URLS,
      publishers: PUBLISHERS,
      block_ms: BLOCK_MS,
      concurrency: CONCURRENCY,
      exit_code: r.code,
      wall_s: Number((wallMs / 1000).toFixed(1)),
      reports_bought: summary.bought ?? 0,
      http_429: summary.http_429 ?? null,
      transfers: transfers.length,
      blocks_with_transfers: new Set(transfers.map((t) => t.blockNumber)).size,
      blocks_elapsed: Number(blockAfter - blockBefore),
      spent_micro: summary.spent_micro ?? null,
      manifest_lines: lines,
      buyer_cpu_ms: Math.round(r.cpuMs),
      buyer_cpu_ms_per_report: summary.bought ? Number((r.cpuMs / summary.bought).toFixed(2)) : null,
      machine: `${os.cpus().length} cores, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      at: new Date().toISOString(),
    };
    console.log(JSON.stringify(result, null, 2));
    if (r.code !== 0) console.error(r.stderr.slice(-2000));
    await mkdir(path.join(ROOT, 'bench/results'), { recursive: true });
    const file = BUYER === 'ts' ? 'bulk.json' : `bulk-${BUYER}.json`;
    await writeFile(path.join(ROOT, 'bench/results', file), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
    await parts.closeAll();
  }
}

await main();
