import { getAddress, type Hex } from 'viem';
import { isLeft } from 'fp-ts/lib/Either.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { PaymentIntent, PAYMENT_INTENT_VERSION } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { base64PlainJson } from './base64-json.js';

// X-Service-Payment-Intent: the unsigned pre-binding (spec §5.5). It is checked against the request
// before anything is fetched or stored: it must name this gate URL, this normalized input and this
// network. Its `payer` is then held against the sign-in proof's signer and, later, the payment's `from`.
// Unsigned on purpose: it declares intent; the SIWX proof is what proves control of the address.

interface IntentExpectation {
  gateUrl: string;
  inputSha256: string;
  network: string;
}

export function checkPaymentIntent(header: string | undefined, e: IntentExpectation): { payer: Hex } {
  if (!header) {
    throw new Refusal(
      'PAYMENT_INTENT_REQUIRED',
      `send X-Service-Payment-Intent: base64 JSON {version:'${PAYMENT_INTENT_VERSION}', ` +
        'payer, resource, input_sha256, network}; ' +
        'do not sign a payment before it is accepted',
    );
  }
  let parsed: unknown;
  try {
    parsed = base64PlainJson(header);
  } catch {
    throw new Refusal(
      'PAYMENT_INTENT_MALFORMED',
      'X-Service-Payment-Intent must be base64 of a plain JSON object (docs/wire.md §6)',
    );
  }
  const decoded = PaymentIntent.decode(parsed);
  if (isLeft(decoded))
    throw new Refusal(
      'PAYMENT_INTENT_MALFORMED',
      `X-Service-Payment-Intent must be exactly {version:'${PAYMENT_INTENT_VERSION}', ` +
        'payer, resource, input_sha256, network}',
    );
  const intent = decoded.right;
  const mismatch = (field: string, expected: string) =>
    new Refusal(
      'PAYMENT_INTENT_MISMATCH',
      `the payment intent's ${field} does not match this request (expected ${expected})`,
      { field },
    );
  if (intent.resource !== e.gateUrl) throw mismatch('resource', e.gateUrl);
  if (intent.input_sha256 !== e.inputSha256) throw mismatch('input_sha256', 'the digest of the normalized input');
  if (intent.network !== e.network) throw mismatch('network', e.network);
  return { payer: getAddress(intent.payer) };
}
