// npm run bench:ops-start — how long an operator command takes from the shell to its exit. Each command
// runs BENCH_ROUNDS times (default 10) as a fresh process, the way an operator types it: `npm run ops --
// --help`, and `npm run ops -- queue` on an embedded store with no service running (the CLI opens the
// store itself), beside the same commands through the TypeScript loader as `npm run ops` ran them
// before (tsx ops/cli.ts) and the embedded store's own open and close in a bare process (the floor
// under a local `queue`). With PG_TEST_URL, `queue` on PostgreSQL too (a schema of its own, dropped
// after). Prints the median and p90 and writes bench/results/ops-start.json. Goal: under a second.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openStore } from '../src/store/open/open.js';

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Case {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

/** The shell's environment without a store or listener of its own: each case names the store it uses. */
const { EVENT_STORE_URL, READ_STORE_URL, OPERATOR_LISTEN, OPERATOR_TOKEN, ...BASE_ENV } = process.env;

async function timed(c: Case): Promise<number> {
  const t0 = performance.now();
  await run(c.command, c.args, { cwd: ROOT, env: { ...BASE_ENV, ...c.env } });
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rights-bench-ops-'));
  const pgSchema = `bench_ops_${process.pid}`;
  const pgUrl = process.env.PG_TEST_URL ? `${process.env.PG_TEST_URL}?schema=${pgSchema}` : undefined;
  try {
    await (await openStore(`file:${path.join(dataDir, 'events')}`)).close();
    if (pgUrl) await (await openStore(pgUrl)).close();
    const local = { DATA_DIR: dataDir };
    const openClose = `const { openStore } = await import('./build/src/store/open/open.js');
      await (await openStore(${JSON.stringify(`file:${path.join(dataDir, 'events')}`)})).close();`;
    const cases: Case[] = [
      { name: 'npm run ops -- --help', command: 'npm', args: ['run', '--silent', 'ops', '--', '--help'] },
      {
        name: 'npm run ops -- queue (embedded)',
        command: 'npm',
        args: ['run', '--silent', 'ops', '--', 'queue'],
        env: local,
      },
      ...(pgUrl
        ? [
            {
              name: 'npm run ops -- queue (PostgreSQL)',
              command: 'npm',
              args: ['run', '--silent', 'ops', '--', 'queue'],
              env: { ...local, EVENT_STORE_URL: pgUrl },
            },
          ]
        : []),
      { name: 'embedded store open + close alone', command: 'node', args: ['--input-type=module', '-e', openClose] },
      { name: 'before: tsx ops/cli.ts --help', command: 'npx', args: ['tsx', 'ops/cli.ts', '--help'] },
      {
        name: 'before: tsx ops/cli.ts queue (embedded)',
        command: 'npx',
        args: ['tsx', 'ops/cli.ts', 'queue'],
        env: local,
      },
    ];
    await timed(cases[0]!); // builds build/ if a source is newer, so no round pays for it
    const results = [];
    for (const c of cases) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) times.push(await timed(c));
      const sorted = times.sort((a, b) => a - b);
      results.push({
        command: c.name,
        runs: sorted.length,
        median_ms: Math.round(quantile(sorted, 0.5)),
        p90_ms: Math.round(quantile(sorted, 0.9)),
      });
    }
    console.log('operator command, shell to exit');
    console.log('command                                      median ms  p90 ms');
    for (const r of results)
      console.log(`${r.command.padEnd(44)} ${String(r.median_ms).padStart(9)}  ${String(r.p90_ms).padStart(6)}`);

    const out = path.join(ROOT, 'bench/results/ops-start.json');
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(
      out,
      `${JSON.stringify(
        {
          benchmark: 'operator command start, shell to exit',
          measured_at: new Date().toISOString(),
          node: process.version,
          cpu: os.cpus()[0]?.model ?? 'unknown',
          load_average: os.loadavg().map((l) => Number(l.toFixed(2))),
          rounds: ROUNDS,
          goal_ms: 1000,
          results,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    if (pgUrl) {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: process.env.PG_TEST_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
      await client.end();
    }
  }
}

await main();
