import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { decodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';
import type { PaymentRequirements } from '@rights-preflight/wire/payment/x402-wire.js';
import { verifyAuthorization } from '../payment/verify-authorization.js';
import type { Hex, PaymentTerms } from './deps.js';
import type { SettlementPort } from '../payment/settlement/port.js';

// Whether a request pays, decided before the product does any work a free request would be limited for
// (docs/wire.md, "Rate limits"; docs/decisions.md, "Paid work is not free work"). A payment admits the
// request when its authorization verifies for exactly this request, without any stored offer: the
// offer's terms are the published ones (network, asset, recipient, EIP-712 domain, window) and the price is
// the input's published price, so every check of verify-authorization.ts applies as it will at redemption:
// signer recovered, amount, asset, recipient, the nonce bound to (resource, key, input) and the window.
// The settlement backend's verify then asks the chain whether the payer can pay it (a freshly made key
// signs perfectly and holds nothing). Either costs what the paid redemption will cost anyway, and the
// recovery is memoized (recovered-signers.ts), so the redemption does not pay for it twice.

export interface AdmissionQuestion {
  /** The binding resource: the canonical resource URL (preflight) or the gate URL. */
  resource: string;
  /** The X-Service-Request value. */
  key: string;
  inputSha256: string;
  /** The published price of this input. */
  priceMicro: bigint;
  /** The buyer's budget from the body. */
  maxTotalMicro: string;
}

/**
 * Called by a product once it knows the question and before its first costly step (observing publishers):
 * a verified payment admits the request as paid work, anything else spends the free-work allowance.
 * Throws RATE_LIMITED when the allowance it falls to is used up.
 */
export type Admit = (q: AdmissionQuestion) => Promise<void>;

/** The payer of a payment that verifies for exactly this request, or undefined. Never throws. */
export type PaidPayer = (paymentSignature: string, q: AdmissionQuestion) => Promise<Hex | undefined>;

export interface PaidAdmissionDeps {
  terms: PaymentTerms;
  now: () => Date;
  settlement: Pick<SettlementPort, 'verify'>;
}

export function paidPayer(deps: PaidAdmissionDeps): PaidPayer {
  return async (header, q) => {
    try {
      const decoded = decodePaymentSignature(header);
      if (!decoded.ok) return undefined;
      const t = deps.terms;
      // What buildOffer will offer for this purchase (money-path/offer.ts), from the same terms and price.
      const requirements: PaymentRequirements = {
        scheme: 'exact',
        network: t.network,
        asset: t.asset,
        payTo: t.payTo,
        amount: q.priceMicro.toString(),
        maxTimeoutSeconds: t.maxTimeoutSeconds,
        extra: { name: t.eip712.name, version: t.eip712.version },
      };
      const checked = await verifyAuthorization({
        payload: decoded.value,
        requirements,
        expectedNonce: boundNonce({ resource: q.resource, key: q.key, input_sha256: q.inputSha256 }),
        maxTotalMicro: q.maxTotalMicro,
        settlementWindowSeconds: t.settlementWindowSeconds,
        now: deps.now(),
      });
      if (!checked.ok) return undefined;
      const funded = await deps.settlement.verify(decoded.value, requirements);
      return funded.isValid ? checked.authorization.from : undefined;
    } catch {
      return undefined;
    }
  };
}
