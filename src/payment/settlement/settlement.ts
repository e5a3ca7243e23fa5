import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { SettlementPort, VerifyOutcome } from './port.js';

// One settlement interface, two backends (SETTLEMENT): `self` (in-process x402 facilitator +
// relayer key) and `facilitator` (a remote x402 facilitator). Both are the SettlementPort the money path calls
// (src/payment/settlement/port.ts, where the settle contract is written down), plus their kind.

export type { PaymentPayload, PaymentRequirements };
export type {
  Broadcast,
  SettleOptions,
  SettleOutcome,
  TransactionOutcome,
  TransferFound,
  VerifyOutcome,
} from './port.js';

export interface Settlement extends SettlementPort {
  readonly kind: 'self' | 'facilitator';
  /** The relayer's transactions handed to the node and not yet answered (`self` only; for /metrics). */
  pendingTransactions?(): PendingTransactions;
}

export interface PendingTransactions {
  count: number;
  /** When the oldest of them was handed to the node (ms since the epoch); undefined when none. */
  oldestSentAt: number | undefined;
}
/** An x402 verify answer (either backend's facilitator) as the port's outcome: the fields it has, no more. */
export const verifyOutcome = (v: { isValid: boolean; invalidReason?: string; payer?: string }): VerifyOutcome => ({
  isValid: v.isValid,
  ...(v.invalidReason ? { invalidReason: v.invalidReason } : {}),
  ...(v.payer ? { payer: v.payer } : {}),
});

/** Facilitator messages may quote calldata (the signed authorization): keep one line, no long hex. */
export function redactFacilitatorMessage(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const line = message
    .split('\n')[0]!
    .replace(/0x[0-9a-fA-F]{64,}/g, '0x…')
    .slice(0, 200);
  return line || undefined;
}
