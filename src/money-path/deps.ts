import type { Logger } from '../runtime/log.js';
import type { CrashAt } from '../runtime/crash-points.js';
import type { EventStore } from '../store/port.js';
import type { InFlight } from './inflight.js';
import type { SealedPayment } from '../../streams/purchase/events.js';
import type { Hex } from '@rights-preflight/wire/contract/primitives.js';
import type { Products } from './product.js';
import type { PaymentNetwork } from '@rights-preflight/wire/payment/network.js';
import type { PayerFailures } from './payer-failures.js';

// What the money path needs from the rest of the service, as narrow function types. service.ts wires
// the real modules (evidence signer, AES-GCM sealer, settlement backend, products) into this; the
// application services never import an adapter, so preflight and the gate can reuse them unchanged.

export type { Hex };
export type SignedEnvelope<P = Record<string, unknown>> = {
  algorithm: 'Ed25519';
  format: 'service-evidence-v1';
  payload: P;
  signature: string;
};

export interface PaymentTerms {
  network: PaymentNetwork;
  asset: Hex;
  payTo: Hex;
  /** EIP-712 domain of the token (x402 `extra`). */
  eip712: { name: string; version: string };
  /** x402 maxTimeoutSeconds: the longest validity window accepted from a buyer. */
  maxTimeoutSeconds: number;
  /**
   * The least validBefore may leave at acceptance (src/payment/settlement-window.ts): the relayer's fee bumps
   * plus a margin; published in capabilities `payment.settlement_window_seconds`.
   */
  settlementWindowSeconds: number;
}

export interface MoneyPathDeps {
  store: EventStore;
  log: Logger;
  now: () => Date;
  /** Known before the routers are built (service.ts binds the port first); never changed after. */
  readonly baseUrl: string;
  coveredOrigins: string[];
  quoteTtlSeconds: number;
  terms: PaymentTerms;
  claimSecret: Uint8Array;
  sign: <P extends Record<string, unknown>>(payload: P) => SignedEnvelope<P>;
  evidenceKeyId: string;
  /** Seals the payment authorization for one purchase (AES-256-GCM, AAD = checkpointAad(purchaseId)). */
  seal: (plaintext: string, purchaseId: string) => Promise<SealedPayment>;
  /** Opens a checkpointed authorization: the sealed-box form for this purchase, or the legacy compact form. */
  unseal: (sealed: SealedPayment, purchaseId: string) => Promise<string>;
  inflight: InFlight<unknown>;
  /** The products by SKU (./product.ts): the money path signs and binds what they draft. */
  products: Products;
  /**
   * Whether the relayer can pay gas for the next RELAYER_MIN_SETTLEMENTS settlements (SETTLEMENT=self):
   * when not, new offers and payments are refused (RELAYER_UNDERFUNDED) before anything is stored.
   */
  relayerCanPay?: () => Promise<boolean>;
  /**
   * Payers whose settlements keep reverting (./payer-failures.ts): their payments are refused
   * (PAYER_SETTLEMENTS_FAILING) before anything is stored.
   */
  payerFailures?: PayerFailures;
  /** Test-only crash points (SIGKILL tests); undefined in production. */
  crashAt?: CrashAt;
}
