import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Hex } from './deps.js';

// The settlement backend as the money path uses it (implemented by src/payment/settlement/).
export type SettleOutcome =
  | { kind: 'success'; transaction: Hex; payer: Hex }
  | { kind: 'failed'; reason: string; message?: string }
  | { kind: 'ambiguous'; reason: string; transaction?: Hex };

export interface TransferFound { transaction: Hex; from: Hex; to: Hex; value: bigint; block: bigint }

export interface SettlementPort {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<{ isValid: boolean; invalidReason?: string; payer?: string }>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  /** Searches the chain's logs from `fromBlock` (default: the backend's configured start, else block 0). */
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  /** The chain's current block number (recorded at checkpoint time to bound recovery's log search). */
  blockNumber(): Promise<bigint>;
}
