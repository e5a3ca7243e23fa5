import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { GATE_PATH } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { REVALIDATE_PATH } from '@rights-preflight/wire/contract/revalidation.js';
import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import type { BuyerAccount } from './account.js';
import { taskBudget, type TaskBudget } from './budget.js';
import type { CheckpointStore } from './checkpoint-store.js';
import type { Pins } from './offer.js';
import type { BuyerLogEvent, BuyerOptions } from './options.js';
import { Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// One buyer's settled options, shared by its steps (quote, pay, deliver, the flows): the pins checked
// once, the budget, the checkpoint store, the resume policy, and a logger that never throws.

export interface BuyerContext {
  baseUrl: string;
  /** The public gate URL the sign-in proof and the payment intent name. */
  gateUrl: string;
  /** The public revalidate URL: the binding resource of a revalidation's nonce. */
  revalidateUrl: string;
  fetch: typeof globalThis.fetch;
  log: (e: BuyerLogEvent) => void;
  account: BuyerAccount;
  pins: Pins;
  budget: TaskBudget;
  store: CheckpointStore;
  resume: { attempts: number; delayMs: number; requestTimeoutMs: number };
  /** Hold ingestion when another standard restricts the purpose (BuyerOptions.holdOnOtherSignals). */
  holdOnOtherSignals: boolean;
  /** capabilities `payment.settlement_window_seconds`, once the buyer has read them (./quote.ts). */
  settlementWindowSeconds?: number;
  /** Gate sign-in proofs by purchase id (./gate-sign-in.ts). */
  signIns: Map<string, { header: string; at: number }>;
}

function pinnedKeyOf(evidenceKey: BuyerOptions['pins']['evidenceKey']): string {
  const key = typeof evidenceKey === 'string' ? evidenceKey.toLowerCase() : evidenceKey.public_key.toLowerCase();
  if (!Sha256Hex.is(key)) throw new TypeError('pins.evidenceKey must be a 32-byte Ed25519 public key in hex');
  if (typeof evidenceKey !== 'string' && keyIdOf(key) !== evidenceKey.key_id)
    throw new TypeError('pins.evidenceKey.key_id is not the id of that public key');
  return key;
}

export function buyerContext(opts: BuyerOptions): BuyerContext {
  const pins: Pins = {
    network: opts.pins.network,
    asset: opts.pins.asset,
    recipient: opts.pins.recipient,
    evidenceKey: pinnedKeyOf(opts.pins.evidenceKey),
  };
  if (chainIdOf(pins.network) === undefined)
    throw new TypeError(`pins.network ${pins.network} is not an eip155 network`);
  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ''),
    gateUrl: (opts.publicUrl ?? opts.baseUrl).replace(/\/+$/, '') + GATE_PATH,
    revalidateUrl: (opts.publicUrl ?? opts.baseUrl).replace(/\/+$/, '') + REVALIDATE_PATH,
    fetch: opts.fetch ?? globalThis.fetch.bind(globalThis),
    log: (e) => {
      try {
        opts.log?.(e);
      } catch {
        /* a logger never breaks a purchase */
      }
    },
    account: opts.account,
    pins,
    budget: taskBudget(BigInt(opts.maxPerReportMicro), BigInt(opts.maxPerTaskMicro)),
    store: opts.checkpointStore,
    resume: {
      attempts: opts.resume?.attempts ?? 6,
      delayMs: opts.resume?.delayMs ?? 250,
      requestTimeoutMs: opts.resume?.requestTimeoutMs ?? 30_000,
    },
    holdOnOtherSignals: opts.holdOnOtherSignals ?? true,
    signIns: new Map(),
  };
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The service's `{error: {code, message}}`, or the HTTP status when the body is not that. */
export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  try {
    const j = (await res.json()) as { error?: { code?: string; message?: string } };
    return { code: j.error?.code ?? `HTTP_${res.status}`, message: j.error?.message ?? res.statusText };
  } catch {
    return { code: `HTTP_${res.status}`, message: res.statusText };
  }
}
