import { getAddress, parseEventLogs, TransactionReceiptNotFoundError, type Hex, type PublicClient } from 'viem';
import { chainClient, eip3009ReadAbi } from '../payment/settlement/chain-reads.js';
import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import type { RefundTransferOnChain } from '../../streams/refund/refund-transfer.js';

// The chain's side of a refund check (streams/refund/refund-transfer.ts judges it): the receipt of the
// transaction the operator names and the configured token's Transfer logs in it, read on RPC_URL. The
// RPC must serve the configured network, or a refund on another chain could pass for one on this one.

export class RefundChainUnavailable extends Error {
  readonly code = 'REFUND_CHAIN_UNAVAILABLE';
}

interface RefundChain {
  rpcUrl: string | undefined;
  network: string;
  usdcAsset: Hex;
}

export type RefundTransferReader = (transaction: Hex) => Promise<Omit<RefundTransferOnChain, 'usedBy'>>;

/** A reader for the configured chain; throws RefundChainUnavailable when RPC_URL is not set. */
export function refundTransferReader(chain: RefundChain): RefundTransferReader {
  if (!chain.rpcUrl)
    throw new RefundChainUnavailable(
      'RPC_URL is not set: a refund transfer is checked on the chain before it is recorded ' +
        '(run the command beside the running service, or set RPC_URL)',
    );
  const pub = chainClient(chain.rpcUrl, chain.network);
  let chainChecked = false;
  return async (transaction) => {
    try {
      if (!chainChecked) {
        const id = await pub.getChainId();
        if (id !== chainIdOf(chain.network))
          throw new RefundChainUnavailable(`RPC_URL serves chain ${id}, not the configured ${chain.network}`);
        chainChecked = true;
      }
      return await readTransfer(pub, chain.usdcAsset, transaction);
    } catch (err) {
      if (err instanceof RefundChainUnavailable) throw err;
      throw new RefundChainUnavailable(`the chain could not be read (${(err as Error).name})`);
    }
  };
}

async function readTransfer(
  pub: PublicClient,
  asset: Hex,
  transaction: Hex,
): Promise<Omit<RefundTransferOnChain, 'usedBy'>> {
  let receipt;
  try {
    receipt = await pub.getTransactionReceipt({ hash: transaction });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return { transaction, receipt: 'missing', transfers: [] };
    throw err;
  }
  if (receipt.status !== 'success') return { transaction, receipt: 'reverted', transfers: [] };
  const transfers = parseEventLogs({
    abi: eip3009ReadAbi,
    eventName: 'Transfer',
    logs: receipt.logs.filter((l) => getAddress(l.address) === getAddress(asset)),
  }).map((e) => ({ from: getAddress(e.args.from), to: getAddress(e.args.to), value: e.args.value.toString() }));
  return { transaction, receipt: 'success', transfers };
}
