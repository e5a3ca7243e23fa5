import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Hex } from '../contract/primitives.js';

// The settlement backend as the money path uses it (implemented by src/payment/settlement/: `self` and
// `facilitator`). What settle can answer — the money path records each case differently:
//   success    the transfer is mined (tx hash; block when it could be read; payer; amount).
//   failed     definitely nothing moved because of THIS call: refused before anything was broadcast,
//              or mined and reverted. (Someone else may still have used the authorization — ask
//              authorizationState before concluding anything about the purchase.)
//   ambiguous  something may have been broadcast and its fate is unknown (lost RPC answer, receipt
//              timeout, remote facilitator unreachable mid-call, receipt without the expected
//              Transfer). `transaction` is set when the hash is known. Decide later from the chain.
export type SettleOutcome =
  | { kind: 'success'; transaction: Hex; payer: Hex; amount: string; blockNumber?: bigint }
  | { kind: 'failed'; reason: string; message?: string }
  | { kind: 'ambiguous'; reason: string; transaction?: Hex };

/** A transfer as observed on chain: what the purchase stream's decide compares with the offer. */
export interface TransferFound {
  transaction: Hex;
  from: Hex;
  to: Hex;
  value: bigint;
  block: bigint;
  /** The token contract that emitted the Transfer log. */
  asset: Hex;
  /** The CAIP-2 id of the chain it was read from. */
  network: string;
}

export type VerifyOutcome = { isValid: boolean; invalidReason?: string; payer?: string };

export interface SettlementPort {
  /** The facilitator's own checks incl. an eth_call simulation (balance, nonce unused, domain). */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleOutcome>;
  /** The token's own record: has this (payer, nonce) authorization been used or cancelled? */
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  /** The transfer that used the authorization, searching logs from `fromBlock` (default: the
   *  backend's start, else 0). */
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  /** The chain's current block number (recorded at checkpoint time to bound recovery's log search). */
  blockNumber(): Promise<bigint>;
}
