import type { PaymentTerms } from './deps.js';
import type { PaymentTermsWire } from '@rights-preflight/wire/contract/common.js';

/** How the payment terms read on the wire wherever the service states them (quote, preflight
 *  discovery, capabilities). */
export const paymentTermsOnWire = (terms: PaymentTerms): PaymentTermsWire => ({
  protocol: 'x402' as const,
  x402_version: 2 as const,
  scheme: 'exact' as const,
  network: terms.network,
  asset: terms.asset,
  pay_to: terms.payTo,
});
