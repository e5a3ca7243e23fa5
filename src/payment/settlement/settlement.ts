import type { Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';

// One settlement interface, two backends (DESIGN.md §4): `self` (in-process x402 facilitator +
// relayer key) and `facilitator` (a remote x402 facilitator). It is structurally the money path's
// SettlementPort (src/purchase/settlement-port.ts), so either backend plugs in unchanged.
//
// The settle contract — the money path records each case differently:
//   success    the transfer is mined (tx hash; block when it could be read; payer; amount).
//   failed     definitely nothing moved because of THIS call: refused before anything was broadcast,
//              or the transaction was mined and reverted. (Someone else may still have used the
//              authorization — ask authorizationState before concluding anything about the purchase.)
//   ambiguous  something may have been broadcast and its fate is unknown (lost RPC answer, receipt
//              timeout, remote facilitator unreachable mid-call, receipt without the expected
//              Transfer). `transaction` is set when the hash is known. Decide later from the chain:
//              authorizationState(payer, nonce) and findTransfer(). Never sign or build a replacement.

export type { PaymentPayload, PaymentRequirements };

export type VerifyOutcome = { isValid: boolean; invalidReason?: string; payer?: string };

export type SettleOutcome =
  | { kind: 'success'; transaction: Hex; payer: Hex; amount: string; blockNumber?: bigint }
  | { kind: 'failed'; reason: string; message?: string }
  | { kind: 'ambiguous'; reason: string; transaction?: Hex };

export interface TransferFound { transaction: Hex; from: Hex; to: Hex; value: bigint; block: bigint }

export interface Settlement {
  readonly kind: 'self' | 'facilitator';
  /** The facilitator's own checks incl. an eth_call simulation (balance, nonce unused, domain). */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
  /** The token's own record: has this (payer, nonce) authorization been used or cancelled? */
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  /** The transfer that used the authorization (AuthorizationUsed log → its receipt's Transfer), if any. */
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  /** The chain's current block number (the money path records it with the checkpoint). */
  blockNumber(): Promise<bigint>;
}

/** Facilitator messages may quote calldata (the signed authorization): keep one line, no long hex. */
export function redactFacilitatorMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const line = message.split('\n')[0]!.replace(/0x[0-9a-fA-F]{64,}/g, '0x…').slice(0, 200);
  return line || undefined;
}
