import { createPublicClient, createWalletClient, defineChain, getAddress, http, parseAbi, parseEventLogs, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { SettlementPort, SettleOutcome, TransferFound } from '../../purchase/settlement-port.js';

// `self` settlement (DESIGN.md §4): the official in-process x402 facilitator (`@x402/core` +
// `@x402/evm` exact scheme) with a viem wallet for the relayer key, submitting to RPC_URL; plus the
// chain reads recovery needs. Minimal version written by the money-path owner because it was needed
// before the payment owner's backends landed.

const tokenAbi = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

export interface SelfSettlementOptions {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: 'eip155:8453' | 'eip155:84532';
  asset: Hex;
  confirmationTimeoutMs?: number;
  /** Test-only: called after the transfer is mined, before the outcome is returned. */
  afterSettle?: () => void;
}

/** Facilitator reasons after which nothing can have moved on chain (the rest are treated as ambiguous). */
const DEFINITE = /^(invalid_|insufficient_funds|unsupported_|asset_not_deployed)/;

export function createSelfSettlement(o: SelfSettlementOptions): SettlementPort & { relayer: Hex } {
  const chainId = Number(o.network.split(':')[1]);
  const chain = defineChain({ id: chainId, name: `eip155-${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [o.rpcUrl] } } });
  const account = privateKeyToAccount(o.relayerPrivateKey);
  const wallet = createWalletClient({ account, chain, transport: http(o.rpcUrl) }).extend(publicActions);
  const pub = createPublicClient({ chain, transport: http(o.rpcUrl) });
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    getCode: (a) => wallet.getCode(a),
    readContract: (a) => wallet.readContract(a as never),
    verifyTypedData: (a) => wallet.verifyTypedData(a as never),
    writeContract: (a) => wallet.writeContract(a as never),
    sendTransaction: (a) => wallet.sendTransaction(a as never),
    waitForTransactionReceipt: (a) => wallet.waitForTransactionReceipt(a),
  }, { confirmationTimeoutMs: o.confirmationTimeoutMs ?? 60_000 });
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer, networks: o.network });

  // One relayer account: submissions go one at a time so its transaction nonces never collide.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => {});
    return run;
  };

  return {
    relayer: account.address,
    async verify(payload: PaymentPayload, req: PaymentRequirements) {
      const v = await facilitator.verify(payload, req);
      return { isValid: v.isValid, ...(v.invalidReason ? { invalidReason: v.invalidReason } : {}), ...(v.payer ? { payer: v.payer } : {}) };
    },
    settle(payload: PaymentPayload, req: PaymentRequirements): Promise<SettleOutcome> {
      return serial(async () => {
        try {
          const s = await facilitator.settle(payload, req);
          if (s.success && /^0x[0-9a-fA-F]{64}$/.test(s.transaction)) {
            o.afterSettle?.();
            return { kind: 'success', transaction: s.transaction as Hex, payer: getAddress(s.payer ?? (payload.payload as { authorization: { from: Hex } }).authorization.from) };
          }
          const reason = s.errorReason ?? 'unknown';
          if (reason === 'settlement_pending' || !DEFINITE.test(reason)) {
            return { kind: 'ambiguous', reason, ...(s.transaction ? { transaction: s.transaction as Hex } : {}) };
          }
          return { kind: 'failed', reason, ...(s.errorMessage ? { message: s.errorMessage } : {}) };
        } catch (err) {
          return { kind: 'ambiguous', reason: `settle_threw:${(err as Error).name}` };
        }
      });
    },
    async authorizationState(payer: Hex, nonce: Hex) {
      return pub.readContract({ address: o.asset, abi: tokenAbi, functionName: 'authorizationState', args: [payer, nonce] });
    },
    async findTransfer(q: { payer: Hex; nonce: Hex }): Promise<TransferFound | undefined> {
      const used = await pub.getLogs({ address: o.asset, event: tokenAbi[1], args: { authorizer: q.payer, nonce: q.nonce }, fromBlock: 0n, toBlock: 'latest' });
      const log = used[0];
      if (!log?.transactionHash) return undefined;
      const receipt = await pub.getTransactionReceipt({ hash: log.transactionHash });
      if (receipt.status !== 'success') return undefined;
      const transfers = parseEventLogs({ abi: tokenAbi, eventName: 'Transfer', logs: receipt.logs.filter((l) => getAddress(l.address) === getAddress(o.asset)) });
      const t = transfers.find((e) => getAddress(e.args.from) === getAddress(q.payer));
      if (!t) return undefined;
      return { transaction: log.transactionHash, from: getAddress(t.args.from), to: getAddress(t.args.to), value: t.args.value, block: receipt.blockNumber };
    },
  };
}
