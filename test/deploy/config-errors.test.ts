import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// A production start with many things wrong: the process reports every one of them, one line each,
// and exits 2, before anything starts (no devnet, no store, no listener).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

async function start(env: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rights-config-errors-'));
  try {
    return await run(process.execPath, ['--import', 'tsx', 'src/service/main.ts'], {
      cwd: ROOT,
      // The listen addresses are free by construction: these tests are about the settings alone.
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: '0',
        METRICS_LISTEN: 'off',
        ...env,
      },
      timeout: 60_000,
    }).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('production: every configuration problem at once, one exit code', async (t) => {
  const r = await start({
    NODE_ENV: 'production',
    PORT: 'eighty',
    PAY_TO: `0x${'0'.repeat(40)}`,
    OPERATOR_TOKEN: 'short',
    FETCH_CONNECT_TO: 'nonsense',
    REFUND_SENDERS: '0x12',
  });
  t.is(r.code, 2, r.stderr);
  const named = r.stderr
    .split('\n')
    .map((l) => /^configuration: (\S+) /.exec(l)?.[1])
    .filter(Boolean);
  t.deepEqual(
    [...named].sort(),
    [
      'CHECKPOINT_KEY',
      'CLAIM_SECRET',
      'EVIDENCE_KEY',
      'FETCH_CONNECT_TO',
      'OPERATOR_TOKEN',
      'PAY_TO',
      'PORT',
      'REFUND_SENDERS',
      'RELAYER_PRIVATE_KEY',
      'RPC_URL',
    ],
    r.stderr,
  );
  t.regex(r.stderr, /PAY_TO must not be the zero address/);
  // The last line names every setting to change.
  t.regex(r.stderr, /10 configuration problem\(s\) \(PORT, [A-Z_, ]+\); nothing was started\n$/);
});

test('production refuses an unset PAY_TO with the same exit code as any other problem', async (t) => {
  const r = await start({
    NODE_ENV: 'production',
    RPC_URL: 'http://127.0.0.1:9',
    RELAYER_PRIVATE_KEY: '22'.repeat(32),
    EVIDENCE_KEY: '01'.repeat(32),
    CHECKPOINT_KEY: '02'.repeat(32),
    CLAIM_SECRET: '03'.repeat(32),
  });
  t.is(r.code, 2, r.stderr);
  t.regex(r.stderr, /^configuration: PAY_TO is required in production/m);
  t.regex(r.stderr, /1 configuration problem\(s\)/);
});
