import test from 'ava';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// `npm run demo` is a promise to a newcomer: run it as they would (its own process, its own devnet,
// publishers and service) and hold it to its output: four classifications, the gate report, and the
// on-chain transfers, exit 0.

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('npm run demo exits 0 showing four classifications, the gate report and the on-chain transfers', async (t) => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'ops/demo.ts'],
        { cwd: repo, env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 },
        (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    },
  );
  t.is(code, 0, stderr || stdout.slice(-2000));
  for (const c of ['PERMITTED_BY_OBSERVED_DECLARATION', 'PROHIBITED_BY_OBSERVED_DECLARATION', 'LICENSE_REQUIRED'])
    t.regex(stdout, new RegExp(`verified report: ${c}`));
  t.regex(stdout, /available:false \(NO_VERIFIABLE_DECLARATION\), charged 0/);
  t.regex(stdout, /https:\/\/bare\.demo\.example\/page: NO_MACHINE_READABLE_DECLARATION/);
  const transfers =
    stdout.split('On-chain transfers buyer → recipient:')[1]?.match(/block \d+ +0x[0-9a-f]{64} +[0-9.]+ USDC/g) ?? [];
  t.is(transfers.length, 4);
  t.regex(stdout, /demo OK: 4 classifications, one ingestion-gate report, 4 transfers/);
});
