import {
  createPublicClient,
  defineChain,
  type Chain,
  getAddress,
  http,
  parseAbi,
  parseEventLogs,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from 'viem';
import { base, baseSepolia } from 'viem/chains';
import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import { jsonRpcFetch } from './json-rpc-fetch.js';
import { type Confirmation, receiptWatcher } from './receipt-watcher.js';
import type { TransactionOutcome, TransferFound } from './settlement.js';

// The chain reads recovery needs, the same for both backends (a remote facilitator cannot answer
// them): the token's authorizationState, and the transfer that used an authorization, found through
// FiatToken's AuthorizationUsed(authorizer, nonce) log and the Transfer log in the same receipt.

export const eip3009ReadAbi = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/** Base and Base Sepolia as viem defines them: their `blockTime` (2 s) sets how often receipts and the
 *  block number are polled (docs/decisions.md, "Settlement at chain speed"). */
const KNOWN_CHAINS: Record<number, Chain> = { [base.id]: base, [baseSepolia.id]: baseSepolia };

export interface ChainTiming {
  /** CHAIN_BLOCK_MS: the node's block time when it is not the chain's own (a devnet, another node). */
  blockMs?: number | undefined;
  /** CONFIRMATION (default `block`): whether a Flashblocks preconfirmed receipt counts (see `receiptAt`). */
  confirmation?: Confirmation | undefined;
}

export type { Confirmation };

/** The chain for `network` reached at `rpcUrl`, with the block time polling is fitted to. */
export function chainAt(rpcUrl: string, network: string, timing: ChainTiming = {}): Chain {
  const id = chainIdOf(network);
  if (id === undefined) throw new Error(`not an eip155 network: ${network}`);
  const known = KNOWN_CHAINS[id];
  const chain: Chain = known
    ? { ...known, rpcUrls: { default: { http: [rpcUrl] } } }
    : defineChain({
        id,
        name: network,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpcUrl] } },
      });
  // Receipts are polled at Base's Flashblocks pace (viem's `experimental_preconfirmationTime`, 200 ms) only
  // when a preconfirmation counts; an explicit block time also drops it: the node named by CHAIN_BLOCK_MS
  // mines at that pace and has no preconfirmations to poll for (a devnet: `preconfirmed` behaves as `block`).
  const { experimental_preconfirmationTime: preconfirmationTime, ...rest } = chain;
  const keep = timing.confirmation === 'preconfirmed' && timing.blockMs === undefined && preconfirmationTime;
  return {
    ...rest,
    ...(keep ? { experimental_preconfirmationTime: preconfirmationTime } : {}),
    ...(timing.blockMs !== undefined ? { blockTime: timing.blockMs } : {}),
  };
}

/**
 * The receipt of `hash` as CONFIRMATION counts it, with the level it was seen at. A Flashblocks-aware
 * node answers eth_getTransactionReceipt for a transaction only preconfirmed in the block being built
 * (its block number is past eth_blockNumber, the sealed head): `block` treats that as not yet mined,
 * `preconfirmed` takes it. Any other node only has sealed receipts, so both levels read `block` there.
 */
export async function receiptAt(
  pub: PublicClient,
  hash: Hex,
  confirmation: Confirmation = 'block',
): Promise<{ receipt: TransactionReceipt; level: Confirmation } | undefined> {
  const receipt = await pub.getTransactionReceipt({ hash }).catch(absentAs(TransactionReceiptNotFoundError));
  if (!receipt) return undefined;
  const sealed = await pub.getBlockNumber({ cacheTime: 0 });
  if (receipt.blockNumber <= sealed) return { receipt, level: 'block' };
  return confirmation === 'preconfirmed' ? { receipt, level: 'preconfirmed' } : undefined;
}

/** The first of `hashes` with a receipt (`receiptAt`), looked for at the chain's pace for up to `withinMs`. */
export function firstReceiptAt(
  pub: PublicClient,
  hashes: readonly Hex[],
  withinMs: number,
  confirmation: Confirmation = 'block',
): Promise<{ receipt: TransactionReceipt; level: Confirmation } | undefined> {
  return receiptWatcher(pub, { pollMs: receiptPollMs(pub), confirmation }).first(hashes, withinMs);
}

/**
 * How often receipts are looked for while a settlement waits: at the Flashblocks pace when preconfirmations
 * count, else a quarter block (at least 25 ms). A mined transfer is seen on average an eighth of a block after
 * its block, where half-block polling took a quarter (docs/decisions.md, "A warm paid path"); the head is
 * one small request, and receipts are still asked only when it moved.
 */
export function receiptPollMs(pub: PublicClient): number {
  const chain = pub.chain;
  if (chain?.experimental_preconfirmationTime) return chain.experimental_preconfirmationTime;
  return chain ? Math.max(Math.floor(pollingFor(chain).pollingInterval / 2), 25) : 1_000;
}

/** How often to poll, and how long a block number is reused: half a block, between 50 ms and 4 s. viem's
 *  own default never polls faster than 500 ms, too slow for a node mining every 250 ms. */
export function pollingFor(chain: Chain): { pollingInterval: number; cacheTime: number } {
  const blockMs = chain.blockTime ?? 12_000;
  const half = Math.floor(blockMs / 2);
  return { pollingInterval: Math.min(Math.max(half, 50), 4_000), cacheTime: Math.min(Math.max(half, 25), 4_000) };
}

export function chainClient(rpcUrl: string, network: string, timing: ChainTiming = {}): PublicClient {
  const chain = chainAt(rpcUrl, network, timing);
  // Reads made in the same turn of the event loop (many settlements at once) travel as one JSON-RPC batch:
  // one HTTP request instead of one each (docs/decisions.md, "One walk for a paid redemption"), sent on node:http
  // (json-rpc-fetch.ts).
  return createPublicClient({
    chain,
    transport: http(rpcUrl, { batch: { batchSize: 100, wait: 0 }, fetchFn: jsonRpcFetch }),
    ...pollingFor(chain),
  }) as PublicClient;
}

interface ChainReads {
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  transactionOutcome(q: { transaction: Hex; payer: Hex; nonce: Hex; waitMs?: number }): Promise<TransactionOutcome>;
  blockNumber(): Promise<bigint>;
  blockOf(transaction: Hex): Promise<bigint | undefined>;
  /** The CAIP-2 id of the chain read. */
  network: string;
}

/**
 * What one receipt shows of the (payer, nonce) authorization: the payer's Transfer of `asset` when the
 * transaction succeeded and used that very authorization (AuthorizationUsed(payer, nonce) in the same
 * receipt), else undefined. Pure: the settle that waited for the receipt and recovery read it the same way.
 */
export function transferOfReceipt(
  receipt: TransactionReceipt,
  q: { payer: Hex; nonce: Hex; asset: Hex; network: string; level?: Confirmation },
): TransferFound | undefined {
  if (receipt.status !== 'success') return undefined;
  const logs = receipt.logs.filter((l) => getAddress(l.address) === getAddress(q.asset));
  const used = parseEventLogs({ abi: eip3009ReadAbi, eventName: 'AuthorizationUsed', logs });
  if (!used.some((e) => getAddress(e.args.authorizer) === getAddress(q.payer) && sameHex(e.args.nonce, q.nonce)))
    return undefined;
  return transferIn(receipt, logs, q.payer, q.asset, q.network, q.level);
}

/** The payer's Transfer among a successful receipt's logs of the asset. */
function transferIn(
  receipt: TransactionReceipt,
  assetLogs: TransactionReceipt['logs'],
  payer: Hex,
  asset: Hex,
  network: string,
  level: Confirmation = 'block',
): TransferFound | undefined {
  if (receipt.status !== 'success') return undefined;
  const transfers = parseEventLogs({ abi: eip3009ReadAbi, eventName: 'Transfer', logs: assetLogs });
  const t = transfers.find((e) => getAddress(e.args.from) === getAddress(payer));
  if (!t) return undefined;
  return {
    transaction: receipt.transactionHash,
    from: getAddress(t.args.from),
    to: getAddress(t.args.to),
    value: t.args.value,
    block: receipt.blockNumber,
    asset: getAddress(asset),
    network,
    ...(level === 'preconfirmed' ? { confirmation: level } : {}),
  };
}

/** The CAIP-2 id of the chain a client reads: what a transfer found through it is recorded as settled on. */
const networkOf = (pub: PublicClient) => `eip155:${pub.chain?.id ?? 'unknown'}`;

export function chainReads(
  pub: PublicClient,
  asset: Hex,
  opts: { fromBlock?: bigint; confirmation?: Confirmation | undefined } = {},
): ChainReads {
  const network = networkOf(pub);
  const ownLogs = (receipt: TransactionReceipt) =>
    receipt.logs.filter((l) => getAddress(l.address) === getAddress(asset));
  return {
    network,
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
        const found = transferIn(receipt, ownLogs(receipt), payer, asset, network);
        if (found) return found;
      }
      return undefined;
    },
    async transactionOutcome({ transaction, payer, nonce, waitMs = 0 }) {
      let found = await receiptAt(pub, transaction, opts.confirmation);
      if (!found) {
        const known = await pub.getTransaction({ hash: transaction }).catch(absentAs(TransactionNotFoundError));
        if (!known) return { state: 'unknown' };
        if (waitMs <= 0) return { state: 'pending' };
        found = await firstReceiptAt(pub, [transaction], waitMs, opts.confirmation);
        if (!found) return { state: 'pending' };
      }
      const { receipt, level } = found;
      if (receipt.status !== 'success') return { state: 'reverted' };
      const transfer = transferOfReceipt(receipt, { payer, nonce, asset, network, level });
      return transfer ? { state: 'mined', transfer } : { state: 'mined' };
    },
    // Reused for half a block (pollingFor): it only bounds recovery's log search, with a margin below it.
    blockNumber: () => pub.getBlockNumber(),
    async blockOf(transaction) {
      try {
        return (await pub.getTransactionReceipt({ hash: transaction })).blockNumber;
      } catch {
        return undefined;
      }
    },
  };
}

/** A viem "not found" (or timeout) error of `kind` becomes undefined; any other failure is passed on. */
const absentAs =
  (kind: abstract new (...args: never[]) => Error) =>
  (err: unknown): undefined => {
    if (err instanceof kind) return undefined;
    throw err;
  };

const sameHex = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
