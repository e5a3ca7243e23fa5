import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import type { startDemoWorld } from '../../ops/demo/world.js';
import { createBuyer, memoryCheckpointStore, type Buyer } from '../../packages/buyer/src/index.js';

// The buyer of the demo-world compliance tests: the first funded devnet buyer, pinned to what the
// service's capabilities publish, and the buyer CLI's `verify` run on a saved report.

type DemoWorld = Awaited<ReturnType<typeof startDemoWorld>>;

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
