import { decodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';
import type { PaymentPayload } from '@rights-preflight/wire/payment/x402-wire.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';

// The one reading of a PAYMENT-SIGNATURE on the service side, for every route that takes one: plain
// JSON that the x402 codecs accept (the wire package's payment/x402-headers.ts; the buyer decodes there too), before it
// is hashed, canonicalized or sealed. Anything else is refused without echoing the value.
export function paymentFromHeader(header: string): PaymentPayload {
  const decoded = decodePaymentSignature(header);
  if (!decoded.ok) {
    throw new Refusal(
      'PAYMENT_SIGNATURE_MALFORMED',
      'PAYMENT-SIGNATURE is not base64 JSON of an x402 v2 PaymentPayload (exact, EIP-3009)',
      { problem: decoded.problem },
    );
  }
  return decoded.value;
}
