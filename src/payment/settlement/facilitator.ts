import { getAddress, type Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { chainClient, chainReads, receiptAt, transferOfReceipt, type ChainTiming } from './chain-reads.js';
import { classifyRemoteSettle } from './classify.js';
import { facilitatorClient } from './facilitator-client.js';
import { verifyOutcome, type Settlement, type SettleOutcome } from './settlement.js';
import type { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';

// `facilitator` settlement (SETTLEMENT=facilitator): a remote x402 facilitator's POST /verify and /settle at
// FACILITATOR_URL, sent as the official HTTPFacilitatorClient sends them (facilitator-client.ts: the same requests,
// answers and errors on node:http). The facilitator pays the gas; we never
// see its relayer. Recovery's chain reads still go through our own RPC_URL: a facilitator cannot be
// asked what happened to an authorization after the fact. It broadcasts nothing itself, so settle's
// write-ahead hook (SettleOptions.beforeBroadcast) is never called here.

interface FacilitatorSettlementOptions {
  facilitatorUrl: string;
  rpcUrl: string;
  network: PaymentNetwork;
  asset: Hex;
  timing?: ChainTiming;
  /** Per request (default 90 s, the client's default; settle waits for a receipt remotely). */
  timeoutMs?: number;
}

export function createFacilitatorSettlement(o: FacilitatorSettlementOptions): Settlement {
  const client = facilitatorClient({ url: o.facilitatorUrl, timeoutMs: o.timeoutMs ?? 90_000 });
  const pub = chainClient(o.rpcUrl, o.network, o.timing);
  const reads = chainReads(pub, o.asset, { confirmation: o.timing?.confirmation });
  return {
    kind: 'facilitator',
    async verify(payload: PaymentPayload, req: PaymentRequirements) {
      try {
        return verifyOutcome(await client.verify(payload, req));
      } catch (err) {
        // VerifyError carries the facilitator's answer; anything else: the facilitator is unreachable.
        const answered = err as { invalidReason?: string };
        return {
          isValid: false,
          invalidReason: answered.invalidReason ?? `facilitator_unavailable:${(err as Error).name}`,
        };
      }
    },
    async settle(payload: PaymentPayload, req: PaymentRequirements): Promise<SettleOutcome> {
      const auth = (payload.payload as { authorization: { from: Hex; value: string } }).authorization;
      const fallback = { payer: getAddress(auth.from), amount: auth.value };
      let outcome: SettleOutcome;
      try {
        outcome = classifyRemoteSettle(await client.settle(payload, req), fallback);
      } catch (err) {
        // SettleError: a non-2xx answer that still says what happened; classify it like a 200.
        const answered = err as { errorReason?: string; transaction?: string; success?: boolean };
        if (typeof answered.errorReason === 'string') {
          outcome = classifyRemoteSettle(
            {
              success: false,
              errorReason: answered.errorReason,
              ...(answered.transaction ? { transaction: answered.transaction } : {}),
            },
            fallback,
          );
        } else {
          // Timeout, connection reset, 5xx without a body: the request may have been acted on.
          return { kind: 'ambiguous', reason: `facilitator_unavailable:${(err as Error).name}` };
        }
      }
      if (outcome.kind !== 'success') return outcome;
      // The transfer from the receipt, read once as CONFIRMATION counts it: the walk records it without asking
      // the chain again (as `self` does with the receipt its settle waited for). Not there yet on our node:
      // the walk reads the chain itself, as before.
      const payer = getAddress(outcome.payer);
      const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
      const seen = await receiptAt(pub, outcome.transaction as Hex, o.timing?.confirmation).catch(() => undefined);
      const transfer =
        seen &&
        transferOfReceipt(seen.receipt, {
          payer: fallback.payer, // the authorization's signer, as the walk's own chain read asks
          nonce,
          asset: o.asset,
          network: reads.network,
          level: seen.level,
        });
      const blockNumber = seen?.receipt.blockNumber ?? (await reads.blockOf(outcome.transaction));
      return {
        ...outcome,
        payer,
        ...(blockNumber !== undefined ? { blockNumber } : {}),
        ...(transfer ? { transfer } : {}),
      };
    },
    authorizationState: reads.authorizationState,
    findTransfer: reads.findTransfer,
    transactionOutcome: reads.transactionOutcome,
    blockNumber: reads.blockNumber,
  };
}
