import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { setDevnetBalance } from './devnet-rpc.js';

// A RELAYER_PRIVATE_KEYS pool for tests that run several service processes on one PostgreSQL: each
// instance leases its own relayer key (docs/decisions.md, "Relayer health and a pool of relayer keys"),
// and a lone RELAYER_PRIVATE_KEY may be held by one instance only.

export interface RelayerPool {
  keys: Hex[];
  relayers: Hex[];
  /** The environment that hands the pool to a service (and no lone key). */
  env: { RELAYER_PRIVATE_KEY: ''; RELAYER_PRIVATE_KEYS: string };
}

/** `size` fresh relayer keys, each given 1 ETH for gas on the devnet at `rpcUrl` (none needs USDC). */
export async function relayerPool(rpcUrl: string, size: number): Promise<RelayerPool> {
  const keys = Array.from({ length: size }, () => generatePrivateKey());
  const relayers = keys.map((k) => privateKeyToAccount(k).address);
  for (const address of relayers) await setDevnetBalance(rpcUrl, address, 10n ** 18n);
  return { keys, relayers, env: { RELAYER_PRIVATE_KEY: '', RELAYER_PRIVATE_KEYS: keys.join(',') } };
}
