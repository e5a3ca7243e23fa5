import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs the buyer CLI as a user does (bin/rights-preflight.mjs in its own node process).
export const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/rights-preflight.mjs');

export const runBuyerCli = (args: string[], env: Record<string, string> = {}, timeout = 90_000) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, timeout },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
