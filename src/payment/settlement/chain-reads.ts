import {
  createPublicClient,
  defineChain,
  getAddress,
  http,
  parseAbi,
  parseEventLogs,
  type Hex,
  type PublicClient,
} from 'viem';
import { chainIdOf } from '../x402-constants.js';
import type { TransferFound } from './settlement.js';

// The chain reads recovery needs, the same for both backends (a remote facilitator cannot answer
// them): the token's authorizationState, and the transfer that used an authorization, found through
// FiatToken's AuthorizationUsed(authorizer, nonce) log and the Transfer log in the same receipt.

export const eip3009ReadAbi = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export function chainClient(rpcUrl: string, network: string): PublicClient {
  const id = chainIdOf(network);
  if (id === undefined) throw new Error(`not an eip155 network: ${network}`);
  const chain = defineChain({
    id,
    name: network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  return createPublicClient({ chain, transport: http(rpcUrl) });
}

export interface ChainReads {
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  blockNumber(): Promise<bigint>;
  blockOf(transaction: Hex): Promise<bigint | undefined>;
}

export function chainReads(pub: PublicClient, asset: Hex, opts: { fromBlock?: bigint } = {}): ChainReads {
  // The chain actually read: what a found transfer is recorded as having settled on.
  const network = `eip155:${pub.chain?.id ?? 'unknown'}`;
  return {
    authorizationState: (payer, nonce) =>
      pub.readContract({
        address: asset,
        abi: eip3009ReadAbi,
        functionName: 'authorizationState',
        args: [payer, nonce],
      }),
    async findTransfer({ payer, nonce, fromBlock }) {
      // On a public chain a log query from block 0 may be refused by the RPC: the money path passes the
      // block recorded with its checkpoint (the window is at most minutes); else the configured start.
      const used = await pub.getLogs({
        address: asset,
        event: eip3009ReadAbi[1],
        args: { authorizer: payer, nonce },
        fromBlock: fromBlock ?? opts.fromBlock ?? 0n,
        toBlock: 'latest',
      });
      for (const log of used) {
        const receipt = await pub.getTransactionReceipt({ hash: log.transactionHash });
        if (receipt.status !== 'success') continue;
        const transfers = parseEventLogs({
          abi: eip3009ReadAbi,
          eventName: 'Transfer',
          logs: receipt.logs.filter((l) => getAddress(l.address) === getAddress(asset)),
        });
        const t = transfers.find((e) => getAddress(e.args.from) === getAddress(payer));
        if (t)
          return {
            transaction: log.transactionHash,
            from: getAddress(t.args.from),
            to: getAddress(t.args.to),
            value: t.args.value,
            block: receipt.blockNumber,
            asset: getAddress(asset),
            network,
          };
      }
      return undefined;
    },
    blockNumber: () => pub.getBlockNumber({ cacheTime: 0 }),
    async blockOf(transaction) {
      try {
        return (await pub.getTransactionReceipt({ hash: transaction })).blockNumber;
      } catch {
        return undefined;
      }
    },
  };
}
