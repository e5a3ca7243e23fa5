import {
  concat,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  BaseError,
  EstimateGasExecutionError,
  ContractFunctionRevertedError,
  type Abi,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { chainIdOf } from '../x402-constants.js';
import type { Submission } from './classify.js';
import type { AfterSubmitHook } from './test-crash-hook.js';
import { chainClient, type ChainTiming } from './chain-reads.js';
import { createNonceManager } from './nonce-manager.js';
import type { PendingTransactions } from './settlement.js';

// The official x402 facilitator (`x402Facilitator` + the `exact` EVM scheme of @x402/evm) with a viem
// wallet for the relayer key, submitting to RPC_URL (reference/x402.md §3.3). Used in-process by the
// `self` backend and, behind HTTP, by the local facilitator server (ops/devnet/facilitator-server.ts).
//
// Settlements run concurrently (docs/decisions.md, "Settlement at chain speed"): each settle gets its
// own signer, which records what that one settlement handed to the node — the SettleResponse alone
// cannot tell "refused" from "sent, answer lost" — and broadcasts through the account's nonce manager,
// so a settlement waits for its own receipt only, never for the one before it.

export interface RelayerFacilitatorOptions {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: string;
  timing?: ChainTiming;
  /** How long settle waits for the receipt before answering settlement_pending (default 60 s). */
  confirmationTimeoutMs?: number;
  /** Called right after the transaction was handed to the node (test crash hook). */
  afterSubmit?: AfterSubmitHook;
  /**
   * Whether this process still holds the relayer key's lease (RELAYER_PRIVATE_KEYS pool): asked before
   * each signature, so a process that lost its lease never signs with a key another may have taken.
   */
  holdsKey?: () => boolean;
}

export interface RelayerFacilitator {
  /** For verify and /supported; it never broadcasts. */
  facilitator: x402Facilitator;
  relayer: Hex;
  /** One settle through the SDK, and what the relayer submitted during exactly that settle. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<Settled>;
  /** Transactions handed to the node whose settle has not answered yet (for /metrics). */
  pending(): PendingTransactions;
}

export interface Settled {
  result: SettleResponse;
  submission: Submission;
}

interface ContractWrite {
  address: Hex;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  dataSuffix?: Hex;
}

export function createRelayerFacilitator(o: RelayerFacilitatorOptions): RelayerFacilitator {
  if (chainIdOf(o.network) === undefined) throw new Error(`not an eip155 network: ${o.network}`);
  const account = privateKeyToAccount(o.relayerPrivateKey);
  const pub = chainClient(o.rpcUrl, o.network, o.timing);
  const chain = pub.chain!;
  // No transport retries for writes: a retried eth_sendRawTransaction after a lost answer only adds noise.
  const wallet = createWalletClient({ account, chain, transport: http(o.rpcUrl, { retryCount: 0 }) });
  /** Hash → when it was handed to the node, until its settle answers. */
  const inFlight = new Map<Hex, number>();
  const nonces = createNonceManager(() => pub.getTransactionCount({ address: account.address, blockTag: 'pending' }));

  /** Estimate (the node simulates: a doomed call is refused here, unsent), then sign and broadcast. */
  async function submit(to: Hex, data: Hex, track: { submission: Submission }): Promise<Hex> {
    let gas: bigint;
    let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    try {
      [gas, fees] = await Promise.all([
        pub.estimateGas({ account: account.address, to, data }),
        pub.estimateFeesPerGas({ chain, type: 'eip1559' }),
      ]);
    } catch (err) {
      // Nothing was signed yet, so nothing was sent, whichever way the node or the RPC failed.
      track.submission = refusedBeforeBroadcast(err)
        ? { stage: 'refused-before-broadcast' }
        : { stage: 'not-submitted' };
      throw err;
    }
    const transaction = await nonces.broadcast(async (nonce) => {
      if (o.holdsKey && !o.holdsKey()) throw new Error('the relayer key lease was lost; not signing');
      const raw = await account.signTransaction(
        { chainId: chain.id, type: 'eip1559', to, data, gas, nonce, ...fees },
        chain.serializers?.transaction ? { serializer: chain.serializers.transaction } : undefined,
      );
      track.submission = { stage: 'unknown' };
      const hash = await wallet.sendRawTransaction({ serializedTransaction: raw });
      if (hash.toLowerCase() !== keccak256(raw).toLowerCase())
        throw new Error('node answered another transaction hash');
      return hash;
    });
    track.submission = { stage: 'sent', transaction };
    inFlight.set(transaction, Date.now());
    o.afterSubmit?.(transaction);
    return transaction;
  }

  /** The signer the SDK drives for one settle; what it submits is recorded in `track`. */
  function signerFor(track: { submission: Submission }) {
    return toFacilitatorEvmSigner(
      {
        address: account.address,
        getCode: (a) => pub.getCode(a),
        readContract: (a) => pub.readContract(a as never),
        verifyTypedData: (a) => pub.verifyTypedData(a as never),
        async writeContract(a) {
          const w = a as unknown as ContractWrite;
          const call = encodeFunctionData({ abi: w.abi, functionName: w.functionName, args: w.args ?? [] } as never);
          return submit(w.address, w.dataSuffix ? concat([call, w.dataSuffix]) : call, track);
        },
        async sendTransaction(a) {
          return submit(a.to, a.data ?? '0x', track);
        },
        waitForTransactionReceipt: (a) => pub.waitForTransactionReceipt(a),
      },
      { confirmationTimeoutMs: o.confirmationTimeoutMs ?? 60_000 },
    );
  }

  // simulateInSettle: a settle re-checks by eth_call first, so a doomed authorization is refused
  // before anything is broadcast (a definite failure instead of a reverted transaction).
  const schemeFor = (track: { submission: Submission }) => {
    const f = new x402Facilitator();
    f.register(o.network as `${string}:${string}`, new ExactEvmScheme(signerFor(track), { simulateInSettle: true }));
    return f;
  };
  const facilitator = schemeFor({ submission: { stage: 'not-submitted' } });

  return {
    facilitator,
    relayer: account.address,
    async settle(payload, requirements) {
      // A facilitator of its own per settle: the submission it records is this settlement's alone, and
      // the SDK's in-memory "pending settlement" cache (which would re-await an earlier call's
      // transaction without a submission of ours) starts empty, so the classification stays exact.
      const track: { submission: Submission } = { submission: { stage: 'not-submitted' } };
      try {
        const result = await schemeFor(track).settle(payload, requirements);
        return { result, submission: track.submission };
      } finally {
        if (track.submission.stage === 'sent') inFlight.delete(track.submission.transaction);
      }
    },
    pending() {
      let oldestSentAt: number | undefined;
      for (const at of inFlight.values()) if (oldestSentAt === undefined || at < oldestSentAt) oldestSentAt = at;
      return { count: inFlight.size, oldestSentAt };
    },
  };
}

/** Gas estimation reverted (the node simulated and refused): the transaction was never sent. */
function refusedBeforeBroadcast(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return Boolean(err.walk((e) => e instanceof EstimateGasExecutionError || e instanceof ContractFunctionRevertedError));
}
