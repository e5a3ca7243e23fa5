import { parseAbi, type Hex } from 'viem';
import { chainClient } from './chain-reads.js';

// The token's EIP-712 signing domain (name, version), which every offer states so the buyer signs the
// authorization the token will accept. Read from the token itself, because a wrong name or version
// makes every signature fail on chain; the real deployments' values stand in when the RPC cannot be
// asked at start-up (the service can still quote, and settlement will read the chain again).
//
//   const eip712 = await tokenDomain(rpcUrl, 'eip155:8453', BASE_USDC); // { name: 'USD Coin', version: '2' }

interface TokenDomain {
  name: string;
  version: string;
}

/** EIP-712 domains of the real USDC deployments, used when the token cannot be asked. */
const KNOWN_DOMAINS: Record<string, TokenDomain> = {
  'eip155:8453': { name: 'USD Coin', version: '2' },
  'eip155:84532': { name: 'USDC', version: '2' },
};

const domainAbi = parseAbi(['function name() view returns (string)', 'function version() view returns (string)']);

export async function tokenDomain(rpcUrl: string, network: string, asset: Hex): Promise<TokenDomain> {
  const pub = chainClient(rpcUrl, network);
  try {
    const [name, version] = await Promise.all([
      pub.readContract({ address: asset, abi: domainAbi, functionName: 'name' }),
      pub.readContract({ address: asset, abi: domainAbi, functionName: 'version' }),
    ]);
    return { name, version };
  } catch {
    const known = KNOWN_DOMAINS[network];
    if (!known) throw new Error(`cannot read the EIP-712 domain of ${asset} on ${network}`);
    return known;
  }
}
