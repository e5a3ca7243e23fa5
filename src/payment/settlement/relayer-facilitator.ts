import {
  concat,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
  parseEventLogs,
  type Abi,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import {
  offChainRefusal,
  signedBy,
  transferErrorReason,
  transferEventAbi,
  transferWithAuthorizationCall,
  type Eip3009Payload,
} from './eip3009-transfer.js';
import type { Submission } from './classify.js';
import { CONFIRMATION_TIMEOUT_MS } from '../settlement-window.js';
import type { SettleOptions } from './settlement.js';
import { RelayerTransactions, type RelayerFacilitatorOptions, type Stuck, type Track } from './relayer-transactions.js';
import type { PendingTransactions } from './settlement.js';

// The official x402 facilitator (`x402Facilitator` + the `exact` EVM scheme of @x402/evm) with a viem
// wallet for the relayer key, submitting to RPC_URL (reference/x402.md §3.3). Used in-process by the
// `self` backend and, behind HTTP, by the local facilitator server (src/devnet/facilitator-server.ts).
//
// Settlements run concurrently (docs/decisions.md, "Settlement at chain speed"): each settle gets its
// own signer, which records what that one settlement handed to the node — the SettleResponse alone
// cannot tell "refused" from "sent, answer lost" — and broadcasts through the account's nonce manager,
// so a settlement waits for its own receipt only, never for the one before it.

export type { FeeBump, RelayerFacilitatorOptions, Stuck } from './relayer-transactions.js';

export interface RelayerFacilitator {
  /** For verify and /supported; it never broadcasts. */
  facilitator: x402Facilitator;
  relayer: Hex;
  /**
   * The x402 `exact` verify, for the in-process relayer: the payload matches the requirements (network,
   * recipient, amount, window), the EIP-712 signature recovers to the payer (through the memo the service's
   * own check of the same payment filled: recovered-signers.ts), the token is a contract, and the transfer
   * simulated from the relayer succeeds (balance, nonce unused, signature as the token sees it). One
   * eth_call; the SDK's verify repeats the recovery and asks the chain four times (docs/decisions.md, "One
   * walk for a paid redemption").
   */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /** One settle through the SDK, and what the relayer submitted during exactly that settle. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements, options?: SettleOptions): Promise<Settled>;
  /** Transactions handed to the node whose settle has not answered yet (for /metrics). */
  pending(): PendingTransactions;
}

export interface Settled {
  result: SettleResponse;
  submission: Submission;
  /** The write-ahead hook refused (docs/decisions.md, "Write-ahead submission record"): nothing was sent. */
  writeAheadFailed?: unknown;
  /** The transaction that was mined, when a fee bump replaced the first one. */
  mined?: Hex;
  /** The receipt settle waited for (success): the transfer is read from it, with no second request. */
  receipt?: TransactionReceipt;
  /** Given up at the fee cap (docs/decisions.md, "Fee cap, filler transaction"): nothing of it was mined. */
  stuck?: Stuck;
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
  const tx = new RelayerTransactions(o);
  const { account, pub, chain, inFlight } = tx;
  const codeOf = (address: Hex) => tx.codeOf(address);

  // The SDK's scheme verifies (settleAuthorization settles without it). simulateInSettle stays on for
  // the SDK's own settle path, which the signer still serves should a caller use it.
  const schemeFor = (track: Track) => {
    const f = new x402Facilitator();
    f.register(
      o.network as `${string}:${string}`,
      new ExactEvmScheme(signerFor(tx, track), { simulateInSettle: true }),
    );
    return f;
  };
  const facilitator = schemeFor({ submission: { stage: 'not-submitted' } });

  return {
    facilitator,
    relayer: account.address,
    async verify(payload, requirements) {
      const { authorization: auth, signature } = payload.payload as unknown as Eip3009Payload;
      const payer = getAddress(auth.from);
      const asset = getAddress(requirements.asset);
      const refused = offChainRefusal(payload, requirements, auth, Math.floor(Date.now() / 1000));
      if (refused) return { isValid: false, invalidReason: refused, payer };
      if (!(await signedBy(auth, signature, requirements, chain.id)))
        return { isValid: false, invalidReason: 'invalid_exact_evm_signature', payer };
      const code = await codeOf(asset);
      if (!code || code === '0x') return { isValid: false, invalidReason: 'asset_not_deployed_contract', payer };
      try {
        // At the pending block, as the settle's own simulation (relayer-transactions.ts `submit`): a payer
        // whose USDC is already leaving is refused here, before anything is stored.
        await pub.call({
          account: account.address,
          to: asset,
          data: transferWithAuthorizationCall(auth, signature),
          blockTag: 'pending',
        });
      } catch (err) {
        const reason = transferErrorReason(err);
        return {
          isValid: false,
          invalidReason:
            reason === 'invalid_exact_evm_transaction_failed'
              ? 'invalid_exact_evm_transaction_simulation_failed'
              : reason,
          payer,
        };
      }
      return { isValid: true, payer };
    },
    async settle(payload, requirements, options = {}) {
      // A facilitator of its own per settle: the submission it records is this settlement's alone, and
      // the SDK's in-memory "pending settlement" cache (which would re-await an earlier call's
      // transaction without a submission of ours) starts empty, so the classification stays exact.
      const track: Track = {
        submission: { stage: 'not-submitted' },
        ...(options.beforeBroadcast ? { beforeBroadcast: options.beforeBroadcast } : {}),
      };
      try {
        const result = await settleAuthorization(tx, payload, requirements, track);
        return {
          result,
          submission: track.submission,
          ...(track.writeAheadFailed !== undefined ? { writeAheadFailed: track.writeAheadFailed } : {}),
          ...(track.mined ? { mined: track.mined } : {}),
          ...(track.receipt ? { receipt: track.receipt } : {}),
          ...(track.stuck ? { stuck: track.stuck } : {}),
        };
      } finally {
        // The first hash is the one counted pending; a replacement keeps that place until the settle answers.
        const first = track.sent?.hashes[0];
        if (first !== undefined) inFlight.delete(first);
      }
    },
    pending() {
      let oldestSentAt: number | undefined;
      for (const at of inFlight.values()) if (oldestSentAt === undefined || at < oldestSentAt) oldestSentAt = at;
      return { count: inFlight.size, oldestSentAt };
    },
  };
}

/**
 * One settlement: the node's gas estimate simulates the transfer (a doomed one is refused unsent), then
 * sign → write ahead → send → wait for this transaction's own receipt. The SDK's settle would first run
 * its whole verify again (a second signature recovery and four chain requests per settlement); the
 * service ran it before the checkpoint, and the simulation re-checks what can have changed since
 * (docs/decisions.md, "One walk for a paid redemption"). The answer has the SDK's SettleResponse shape
 * and reasons, so the classification (classify.ts) is the same for both.
 */
async function settleAuthorization(
  tx: RelayerTransactions,
  payload: PaymentPayload,
  requirements: PaymentRequirements,
  track: Track,
): Promise<SettleResponse> {
  const { authorization: auth, signature } = payload.payload as unknown as Eip3009Payload;
  const payer = getAddress(auth.from);
  const network = requirements.network;
  const asset = getAddress(requirements.asset);
  let transaction: Hex;
  try {
    transaction = await tx.submit(asset, transferWithAuthorizationCall(auth, signature), track);
  } catch (err) {
    return { success: false, errorReason: transferErrorReason(err), transaction: '', network, payer };
  }
  let receipt: TransactionReceipt;
  try {
    receipt = await tx.receiptOf(transaction, track, tx.o.confirmationTimeoutMs ?? CONFIRMATION_TIMEOUT_MS);
  } catch {
    return { success: false, errorReason: 'settlement_pending', transaction, network, payer };
  }
  const mined = receipt.transactionHash;
  if (receipt.status !== 'success')
    return {
      success: false,
      errorReason: 'invalid_exact_evm_transaction_failed',
      transaction: mined,
      network,
      payer,
    };
  track.receipt = receipt;
  const moved = parseEventLogs({ abi: transferEventAbi, eventName: 'Transfer', logs: receipt.logs }).some(
    (l) =>
      isAddressEqual(l.address, asset) &&
      isAddressEqual(l.args.from, payer) &&
      isAddressEqual(l.args.to, auth.to) &&
      l.args.value === BigInt(auth.value),
  );
  if (!moved)
    return { success: false, errorReason: 'invalid_exact_evm_transfer_event_mismatch', transaction, network, payer };
  return { success: true, transaction, network, payer };
}

/** The signer the SDK drives for one settle; what it submits is recorded in `track`. */
function signerFor(tx: RelayerTransactions, track: Track) {
  const { o, account, pub } = tx;
  return toFacilitatorEvmSigner(
    {
      address: account.address,
      getCode: (a) => tx.codeOf(a.address),
      readContract: (a) => pub.readContract(a as never),
      // An EOA's signature is recovered locally first; only what that does not verify (a smart wallet's
      // ERC-1271 / ERC-6492 signature) costs the deployless validator's eth_call.
      verifyTypedData: (a) => pub.verifyTypedData(a as never),
      async writeContract(a) {
        const w = a as unknown as ContractWrite;
        const call = encodeFunctionData({ abi: w.abi, functionName: w.functionName, args: w.args ?? [] } as never);
        return tx.submit(w.address, w.dataSuffix ? concat([call, w.dataSuffix]) : call, track);
      },
      async sendTransaction(a) {
        return tx.submit(a.to, a.data ?? '0x', track);
      },
      waitForTransactionReceipt: (a) =>
        tx.receiptOf(
          a.hash,
          track,
          (a as { timeout?: number }).timeout ?? o.confirmationTimeoutMs ?? CONFIRMATION_TIMEOUT_MS,
        ),
    },
    { confirmationTimeoutMs: o.confirmationTimeoutMs ?? CONFIRMATION_TIMEOUT_MS },
  );
}
