import {
  createWalletClient,
  http,
  publicActions,
  BaseError,
  EstimateGasExecutionError,
  ContractFunctionRevertedError,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { chainIdOf } from '../x402-constants.js';
import type { Submission } from './classify.js';
import type { AfterSubmitHook } from './test-crash-hook.js';
import { chainClient, type ChainTiming } from './chain-reads.js';

// The official x402 facilitator (`x402Facilitator` + the `exact` EVM scheme of @x402/evm) with a viem
// wallet for the relayer key, submitting to RPC_URL (reference/x402.md §3.3). Used in-process by the
// `self` backend and, behind HTTP, by the local facilitator server (ops/devnet/facilitator-server.ts).
// The relayer's writeContract is wrapped so the caller learns whether a transaction was handed to the
// node — the SettleResponse alone cannot tell "refused" from "sent, answer lost".

export interface RelayerFacilitatorOptions {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: string;
  timing?: ChainTiming;
  /** How long settle waits for the receipt before answering settlement_pending (default 60 s). */
  confirmationTimeoutMs?: number;
  /** Called right after the transaction was handed to the node (test crash hook). */
  afterSubmit?: AfterSubmitHook;
}

export interface RelayerFacilitator {
  facilitator: x402Facilitator;
  relayer: Hex;
  /** Runs one settle-like operation, serialized, and reports what the relayer submitted during it. */
  track<T>(work: () => Promise<T>): Promise<{ result: T; submission: Submission }>;
}

export function createRelayerFacilitator(o: RelayerFacilitatorOptions): RelayerFacilitator {
  if (chainIdOf(o.network) === undefined) throw new Error(`not an eip155 network: ${o.network}`);
  const account = privateKeyToAccount(o.relayerPrivateKey);
  const pub = chainClient(o.rpcUrl, o.network, o.timing);
  // No transport retries for writes: a retried eth_sendRawTransaction after a lost answer only adds noise.
  const wallet = createWalletClient({
    account,
    chain: pub.chain!,
    transport: http(o.rpcUrl, { retryCount: 0 }),
  }).extend(publicActions);

  let submission: Submission = { stage: 'not-submitted' };
  const signer = toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (a) => pub.getCode(a),
      readContract: (a) => pub.readContract(a as never),
      verifyTypedData: (a) => pub.verifyTypedData(a as never),
      async writeContract(a) {
        submission = { stage: 'unknown' };
        try {
          const transaction = await wallet.writeContract(a as never);
          submission = { stage: 'sent', transaction };
          o.afterSubmit?.(transaction);
          return transaction;
        } catch (err) {
          if (refusedBeforeBroadcast(err)) submission = { stage: 'refused-before-broadcast' };
          throw err;
        }
      },
      async sendTransaction(a) {
        submission = { stage: 'unknown' };
        const transaction = await wallet.sendTransaction(a as never);
        submission = { stage: 'sent', transaction };
        return transaction;
      },
      waitForTransactionReceipt: (a) => pub.waitForTransactionReceipt(a),
    },
    { confirmationTimeoutMs: o.confirmationTimeoutMs ?? 60_000 },
  );

  const facilitator = new x402Facilitator();
  // simulateInSettle: a settle re-checks by eth_call first, so a doomed authorization is refused
  // before anything is broadcast (a definite failure instead of a reverted transaction).
  facilitator.register(o.network as `${string}:${string}`, new ExactEvmScheme(signer, { simulateInSettle: true }));

  // One relayer account: one submission at a time, so its transaction nonces never collide and the
  // tracked submission belongs to exactly one settle call.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    facilitator,
    relayer: account.address,
    track<T>(work: () => Promise<T>) {
      const run = queue.then(async () => {
        submission = { stage: 'not-submitted' };
        const result = await work();
        return { result, submission };
      });
      queue = run.catch(() => {});
      return run;
    },
  };
}

/** Gas estimation reverted (the node simulated and refused): the transaction was never sent. */
function refusedBeforeBroadcast(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return Boolean(err.walk((e) => e instanceof EstimateGasExecutionError || e instanceof ContractFunctionRevertedError));
}
