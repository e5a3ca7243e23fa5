import { getAddress, type Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { chainClient, chainReads, transferOfReceipt, type ChainTiming } from './chain-reads.js';
import { classifySelfSettle } from './classify.js';
import { createRelayerFacilitator, type FeeBump } from './relayer-facilitator.js';
import {
  redactFacilitatorMessage,
  verifyOutcome,
  type PendingTransactions,
  type SettleOptions,
  type Settlement,
  type SettleOutcome,
} from './settlement.js';
import type { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';

// `self` settlement (SETTLEMENT=self): the official x402 facilitator in this process, a viem wallet for
// RELAYER_PRIVATE_KEY paying the gas, submitting transferWithAuthorization to RPC_URL; chain reads
// for recovery on the same RPC.

export interface SelfSettlementOptions {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: PaymentNetwork;
  asset: Hex;
  timing?: ChainTiming;
  confirmationTimeoutMs?: number;
  /** Fee bumps of a transaction left unmined (SETTLEMENT_BUMP_BLOCKS, SETTLEMENT_MAX_FEE_GWEI). */
  bump?: FeeBump;
  /** Test-only: called after the transfer is mined, before the outcome is returned. */
  afterSettle?: () => void;
  /** Test-only: called right after the transaction is handed to the node (src/runtime/crash-points.ts). */
  afterSubmit?: () => void;
  /** Whether this process still holds the relayer key's lease (relayer-facilitator.ts). */
  holdsKey?: () => boolean;
  onReplacement?: () => void;
}

export function createSelfSettlement(
  o: SelfSettlementOptions,
): Settlement & { relayer: Hex; pendingTransactions(): PendingTransactions } {
  const relayer = createRelayerFacilitator({
    rpcUrl: o.rpcUrl,
    relayerPrivateKey: o.relayerPrivateKey,
    network: o.network,
    ...(o.timing ? { timing: o.timing } : {}),
    ...(o.confirmationTimeoutMs ? { confirmationTimeoutMs: o.confirmationTimeoutMs } : {}),
    ...(o.bump ? { bump: o.bump } : {}),
    ...(o.holdsKey ? { holdsKey: o.holdsKey } : {}),
    ...(o.onReplacement ? { onReplacement: o.onReplacement } : {}),
    ...(o.afterSubmit ? { afterSubmit: o.afterSubmit } : {}),
  });
  const reads = chainReads(chainClient(o.rpcUrl, o.network, o.timing), o.asset, {
    confirmation: o.timing?.confirmation,
  });

  return {
    kind: 'self',
    relayer: relayer.relayer,
    pendingTransactions: () => relayer.pending(),
    async verify(payload: PaymentPayload, req: PaymentRequirements) {
      try {
        return verifyOutcome(await relayer.verify(payload, req));
      } catch (err) {
        return { isValid: false, invalidReason: `verify_failed:${(err as Error).name}` };
      }
    },
    async settle(payload: PaymentPayload, req: PaymentRequirements, options?: SettleOptions): Promise<SettleOutcome> {
      const auth = (payload.payload as { authorization: { from: Hex; value: string } }).authorization;
      const fallback = { payer: getAddress(auth.from), amount: auth.value };
      let tracked;
      try {
        tracked = await relayer.settle(payload, req, options);
      } catch (err) {
        // The SDK catches submission errors itself; a throw here means our own wrapper or an RPC read
        // failed in a way it did not expect. We cannot tell whether anything was sent.
        return { kind: 'ambiguous', reason: `settle_threw:${(err as Error).name}` };
      }
      // The write-ahead record could not be written, so the signed transaction was never sent.
      if (tracked.writeAheadFailed !== undefined) return { kind: 'failed', reason: 'write_ahead_failed' };
      // Given up at the fee cap, its account nonce filled: the purchase goes to the operator with its hashes.
      if (tracked.stuck)
        return {
          kind: 'stuck',
          reason: 'fee_cap_reached',
          transactions: tracked.stuck.transactions,
          relayer: relayer.relayer,
          accountNonce: tracked.stuck.accountNonce,
          ...(tracked.stuck.filler ? { filler: tracked.stuck.filler } : {}),
        };
      const classified = classifySelfSettle(tracked.result, tracked.submission, fallback);
      // A fee bump mined: the SDK still names the first hash, the chain shows the replacement's.
      const outcome =
        classified.kind === 'success' && tracked.mined ? { ...classified, transaction: tracked.mined } : classified;
      if (outcome.kind === 'success') {
        o.afterSettle?.();
        const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
        // Only a sealed block's receipt is read here; a preconfirmed one's level is recovery's to record.
        const sealed = o.timing?.confirmation !== 'preconfirmed';
        const transfer =
          tracked.receipt && sealed
            ? transferOfReceipt(tracked.receipt, {
                payer: outcome.payer,
                nonce,
                asset: o.asset,
                network: reads.network,
              })
            : undefined;
        const blockNumber = tracked.receipt?.blockNumber ?? (await reads.blockOf(outcome.transaction));
        return {
          ...outcome,
          payer: getAddress(outcome.payer),
          ...(blockNumber !== undefined ? { blockNumber } : {}),
          ...(transfer ? { transfer } : {}),
        };
      }
      if (outcome.kind === 'failed') {
        const message = redactFacilitatorMessage(tracked.result.errorMessage);
        return message ? { ...outcome, message } : outcome;
      }
      return outcome;
    },
    authorizationState: reads.authorizationState,
    findTransfer: reads.findTransfer,
    transactionOutcome: reads.transactionOutcome,
    blockNumber: reads.blockNumber,
  };
}
