import { startDevnetProcess, type DevnetProcess } from './process.js';
import { devnetOperations, type Devnet, type DevnetInfo } from './devnet.js';

// The devnet in its own process (src/devnet/process.ts) with the chain's test operations (mint,
// balances, transfer logs) that tests and benchmarks use on it; the service needs none of them.

export type DevnetChainProcess = DevnetProcess<DevnetInfo> & Devnet;

export async function startDevnetChainProcess(
  opts: Parameters<typeof startDevnetProcess>[0] = {},
): Promise<DevnetChainProcess> {
  const devnet = await startDevnetProcess<DevnetInfo>(opts);
  return { ...devnet, ...devnetOperations(devnet) };
}
