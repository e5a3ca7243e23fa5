import type { Hex } from 'viem';
import type { DevPublishers } from '../config/service-config.js';

/** What the service reads of the devnet's ready line (src/devnet/devnet.ts DevnetInfo has it all). */
export interface DevChainInfo {
  rpcUrl: string;
  chainId: number;
  network: string;
  usdc: Hex;
  payTo: Hex;
  relayer: { address: Hex; privateKey: Hex };
  buyers: { address: Hex; privateKey: Hex }[];
  /** Interval mining in ms (DEVNET_BLOCK_MS); absent when the devnet mines each transaction at once. */
  blockMs?: number;
  /** The example publishers (`--publishers DIR`: npm start in development), their CA and addresses. */
  publishers?: DevPublishers;
}

/** The block's lines naming the example publishers (development only). */
export function publisherLines(p: DevPublishers): [string, string][] {
  return [
    ['EXAMPLES', 'publishers served on loopback and covered by default (development only):'],
    ...Object.entries(p.resources).map(([kind, url]): [string, string] => [`  ${kind}`, url]),
  ];
}

// The one block `npm start` (development, DEVNET=auto) and `npm run devnet` print so a developer, or a
// third-party buyer under test, can reach the local chain: RPC URL, chain id, USDC, recipient, and the
// funded accounts with their keys. Those keys are Hardhat's public test keys: development only.
export function devChainBlock(
  info: Pick<DevChainInfo, 'rpcUrl' | 'chainId' | 'network' | 'usdc' | 'payTo' | 'buyers'>,
  extra: [string, string][] = [],
): string {
  const rule = '─'.repeat(78);
  return (
    [
      rule,
      'DEVELOPMENT CHAIN — local devnet, test keys, no real funds. Never use these keys anywhere else.',
      `  RPC_URL          ${info.rpcUrl}`,
      `  chain id         ${info.chainId} (${info.network})`,
      `  USDC             ${info.usdc}`,
      `  PAY_TO           ${info.payTo}`,
      ...extra.map(([k, v]) => `  ${k.padEnd(16)} ${v}`),
      '  funded buyer accounts (DEVELOPMENT ONLY: address  private key):',
      ...info.buyers.map((b) => `    ${b.address}  ${b.privateKey}`),
      rule,
    ].join('\n') + '\n'
  );
}
