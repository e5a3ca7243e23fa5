import { createPublicClient, http, type Hex } from 'viem';
import { startDevnet, type Devnet } from '../../../src/devnet/devnet.js';
import { createSelfSettlement, type SelfSettlementOptions } from '../../../src/payment/settlement/self.js';
import type { PaymentPayload, PaymentRequirements } from '@rights-preflight/wire/payment/x402-wire.js';
import { nonceFor, offer, pay } from './offer.js';
import { startedInHook } from '../../support/started-in-hook.js';

// The world of the settlement tests that talk to the relayer directly (no service): one devnet for the
// file, mining on the clock when `blockMs` is given, the `self` settlement of its relayer at that pace,
// and fresh payments for the standard offer.

export interface PaymentDevnet extends Devnet {
  /** The devnet relayer's `self` settlement at the devnet's block time; `over` changes what a test is about. */
  selfSettlement(over?: Partial<SelfSettlementOptions>): ReturnType<typeof createSelfSettlement>;
  /** A payment by buyer `buyer` for the standard offer, with a nonce of its own. */
  payment(buyer: number): Promise<{ req: PaymentRequirements; nonce: Hex; payer: Hex; payload: PaymentPayload }>;
  /** The relayer account's pending transaction count (its next account nonce). */
  relayerNonce(): Promise<number>;
}

export async function paymentDevnet(opts: { blockMs?: number } = {}): Promise<PaymentDevnet> {
  const d = await startDevnet(opts.blockMs !== undefined ? { blockMs: opts.blockMs } : {});
  const pub = createPublicClient({ transport: http(d.rpcUrl) });
  let n = 0;
  return Object.assign(d, {
    selfSettlement: (over: Partial<SelfSettlementOptions> = {}) =>
      createSelfSettlement({
        rpcUrl: d.rpcUrl,
        relayerPrivateKey: d.relayer.privateKey,
        network: 'eip155:8453',
        asset: d.usdc,
        ...(opts.blockMs !== undefined ? { timing: { blockMs: opts.blockMs } } : {}),
        ...over,
      }),
    async payment(buyer: number) {
      const req = offer(d.payTo);
      const nonce = nonceFor('https://pub.example/articles/one', `payment-${++n}-${Date.now()}`);
      const from = d.buyers[buyer]!;
      return { req, nonce, payer: from.address, payload: await pay(from.privateKey, req, nonce) };
    },
    relayerNonce: () => pub.getTransactionCount({ address: d.relayer.address, blockTag: 'pending' }),
  });
}

/** One payment devnet for the calling test file, started before its tests and stopped after them. */
export function usePaymentDevnet(opts: { blockMs?: number } = {}): () => PaymentDevnet {
  const d = startedInHook(
    () => paymentDevnet(opts),
    (devnet) => devnet.stop(),
  );
  return () => d;
}
