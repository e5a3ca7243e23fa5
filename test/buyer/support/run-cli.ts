import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs the buyer CLI as a user does (packages/buyer/bin/rights-preflight.mjs in its own node process). Its working
// directory is a temp folder of this test process (buy and gate save reports there by default), never
// the repository; a test that looks for the saved file passes its own `cwd`.
export const BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/buyer/bin/rights-preflight.mjs',
);

let defaultCwd: string | undefined;

export const runBuyerCli = (args: string[], env: Record<string, string> = {}, timeout = 90_000, cwd?: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    if (defaultCwd === undefined) {
      const dir = mkdtempSync(path.join(tmpdir(), 'rights-buyer-cli-'));
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      defaultCwd = dir;
    }
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout, cwd: cwd ?? defaultCwd },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
