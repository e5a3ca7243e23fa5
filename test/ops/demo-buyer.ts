import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { readFile } from 'node:fs/promises';
import type { LocalWorld } from '../../ops/world/local-world.js';
import { createBuyer, memoryCheckpointStore, type Buyer } from '@rights-preflight/buyer';
import { cli } from './seed.js';

// The buyer of the demo-world compliance tests: the first funded devnet buyer, pinned to what the
// service's capabilities publish, the buyer CLI's `verify` run on a saved report, and the operator's
// compliance export of the world's store once its service has stopped.

type DemoWorld = LocalWorld;

export async function demoBuyer(
  w: DemoWorld,
): Promise<{ buyer: Buyer; evidenceKey: { key_id: string; public_key: string } }> {
  const caps = (await (await fetch(`${w.url}/v1/capabilities`)).json()) as {
    evidence: { keys: { key_id: string; public_key: string }[] };
  };
  const evidenceKey = caps.evidence.keys[0]!;
  const buyer = createBuyer({
    baseUrl: w.url,
    account: privateKeyToAccount(w.devnet.buyers[0]!.privateKey),
    pins: { network: w.devnet.network, asset: w.devnet.usdc, recipient: w.devnet.payTo, evidenceKey },
    maxPerReportMicro: 150_000n,
    maxPerTaskMicro: 1_000_000n,
    checkpointStore: memoryCheckpointStore(),
  });
  return { buyer, evidenceKey };
}

const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../packages/buyer/bin/rights-preflight.mjs');

/** `rights-preflight verify FILE --key KEY`, as a buyer runs it. */
export const verifyWithCli = (file: string, key: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, 'verify', file, '--key', key], { timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

/** The environment of an operator's shell beside the world's embedded store. */
export const operatorEnv = (dataDir: string) => ({
  EVENT_STORE_URL: `file:${path.join(dataDir, 'events')}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
});

/** `ops compliance export` of everything, as JSON lines, with its rows (the service must have stopped). */
export async function exportAll(dataDir: string) {
  const out = path.join(dataDir, 'export.jsonl');
  const run = await cli(
    ['compliance', 'export', '--from', '2000-01-01', '--to', '2999-12-31', '--format', 'jsonl', '--out', out],
    operatorEnv(dataDir),
  );
  const rows =
    run.code === 0
      ? (await readFile(out, 'utf8'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { ...run, rows };
}
