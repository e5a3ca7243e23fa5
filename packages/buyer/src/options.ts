import type { BuyerAccount } from './account.js';
import type { CheckpointStore } from './checkpoint-store.js';

// What a caller gives createBuyer, and what it asks for.

export type Purpose = 'ai-input' | 'ai-index' | 'ai-train' | 'search';
export type Tier = 'fresh' | 'deep';

export interface BuyerLogEvent {
  step: string;
  [field: string]: string | number | boolean | undefined;
}

export interface BuyerOptions {
  baseUrl: string;
  /** Signs the payment and the gate's sign-in: `privateKeyAccount(key)`, or a viem LocalAccount. */
  account: BuyerAccount;
  pins: {
    network: string;
    asset: string;
    recipient: string;
    evidenceKey: string | { key_id: string; public_key: string };
  };
  maxPerReportMicro: bigint | number | string;
  maxPerTaskMicro: bigint | number | string;
  checkpointStore: CheckpointStore;
  /**
   * The service's public base URL when `baseUrl` is another route to it (a tunnel, a proxy). The gate's
   * sign-in proof and payment intent name the public gate URL. Defaults to `baseUrl`.
   */
  publicUrl?: string;
  fetch?: typeof globalThis.fetch;
  /** Progress events; they carry ids, amounts and transaction hashes only — never a claim, key,
   *  signature or checkpoint. */
  log?: (e: BuyerLogEvent) => void;
  /**
   * Hold ingestion (a delivered result's `ingestion_hold`) when another standard beside RSL restricts the
   * purpose (`signals_summary` RESTRICTED_BY_OTHER_SIGNAL, docs/wire.md §15). Default true; false never holds.
   */
  holdOnOtherSignals?: boolean;
  /** Resume policy for ambiguous outcomes after the payment was sent. */
  resume?: { attempts?: number; delayMs?: number; requestTimeoutMs?: number };
}

export interface ReportRequest {
  resource: string;
  purpose: Purpose;
  tier: Tier;
  user_class?: string;
}
