import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Hex } from '@rights-preflight/wire/contract/primitives.js';

// The settlement backend as the money path uses it (implemented by src/payment/settlement/: `self` and
// `facilitator`). What settle can answer — the money path records each case differently:
//   success    the transfer is mined (tx hash; block when it could be read; payer; amount).
//   failed     definitely nothing moved because of THIS call: refused before anything was broadcast,
//              or mined and reverted. (Someone else may still have used the authorization — ask
//              authorizationState before concluding anything about the purchase.)
//   ambiguous  something may have been broadcast and its fate is unknown (lost RPC answer, receipt
//              timeout, remote facilitator unreachable mid-call, receipt without the expected
//              Transfer). `transaction` is set when the hash is known. Decide later from the chain.
//   stuck      sent, never mined, and the next fee bump would pass SETTLEMENT_MAX_FEE_GWEI: the relayer
//              gave up on it and replaced it at its account nonce with a 0-value self-transfer (`filler`,
//              when the node took it), so at most the original or the filler is mined, never both. Every
//              hash sent for this settlement is in `transactions` (docs/decisions.md, "Fee cap, filler").
export type SettleOutcome =
  | {
      kind: 'success';
      transaction: Hex;
      payer: Hex;
      amount: string;
      blockNumber?: bigint;
      /** The transfer read from the receipt settle waited for (self): recovery's reads are not needed. */
      transfer?: TransferFound;
    }
  | {
      kind: 'failed';
      reason: string;
      message?: string;
      /** The transfer itself reverted: in the simulation before the broadcast (no gas), or mined (gas paid). */
      reverted?: 'simulated' | 'mined';
    }
  | { kind: 'ambiguous'; reason: string; transaction?: Hex }
  | { kind: 'stuck'; reason: string; transactions: Hex[]; relayer: Hex; accountNonce: number; filler?: Hex };

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
  /** Read from a Flashblocks preconfirmation, not yet a sealed block (CONFIRMATION=preconfirmed). */
  confirmation?: 'preconfirmed';
}

/** A signed transaction about to be handed to the node (its hash is keccak256 of the signed bytes). */
export interface Broadcast {
  transaction: Hex;
  relayer: Hex;
  /** The relayer account's transaction nonce. */
  accountNonce: number;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  /** A fee bump: the transaction at the same account nonce this one replaces. */
  replaces?: Hex;
}

export interface SettleOptions {
  /**
   * Write-ahead (docs/decisions.md, "Write-ahead submission record"): called with each signed
   * transaction before it is broadcast; the broadcast waits for it, and does not happen if it throws
   * (then settle answers `failed` with reason `write_ahead_failed`: nothing was sent). A backend that
   * does not broadcast itself (a remote facilitator) never calls it.
   */
  beforeBroadcast?: (b: Broadcast) => Promise<void>;
}

/** What the chain says of one transaction hash (recovery asks about the hashes it recorded). */
export type TransactionOutcome =
  | { state: 'mined'; transfer?: TransferFound } // succeeded; `transfer` when it used this authorization
  | { state: 'reverted' } // mined and reverted: nothing moved
  | { state: 'pending' } // known to the node, not mined (after waiting, when asked to)
  | { state: 'unknown' }; // neither mined nor known to the node: never arrived, or dropped

export type VerifyOutcome = { isValid: boolean; invalidReason?: string; payer?: string };

export interface SettlementPort {
  /** The facilitator's own checks incl. an eth_call simulation (balance, nonce unused, domain). */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyOutcome>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements, options?: SettleOptions): Promise<SettleOutcome>;
  /** The token's own record: has this (payer, nonce) authorization been used or cancelled? */
  authorizationState(payer: Hex, nonce: Hex): Promise<boolean>;
  /** The transfer that used the authorization, searching logs from `fromBlock` (default: the
   *  backend's start, else 0). */
  findTransfer(q: { payer: Hex; nonce: Hex; fromBlock?: bigint }): Promise<TransferFound | undefined>;
  /** One recorded transaction: mined (with the transfer of the (payer, nonce) authorization it made, if
   *  any), reverted, pending or unknown. A pending one is waited for up to `waitMs` (default 0). */
  transactionOutcome(q: { transaction: Hex; payer: Hex; nonce: Hex; waitMs?: number }): Promise<TransactionOutcome>;
  /** The chain's current block number (recorded at checkpoint time to bound recovery's log search). */
  blockNumber(): Promise<bigint>;
}
