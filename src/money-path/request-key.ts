import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { ServiceRequestKey } from '@rights-preflight/wire/contract/preflight.js';

// X-Service-Request (spec §5.4): the buyer's private retry key for the key-bound flows (preflight,
// ingestion gate). It is the binding key of the payment nonce and, hashed, part of the purchase id,
// so the same key and input always land on the same purchase stream. It is never logged, never put
// in an error or event in clear (only sha256(key) is stored), and never echoed back.

export function requireServiceRequestKey(value: string | undefined): string {
  if (!value) {
    throw new Refusal(
      'SERVICE_REQUEST_REQUIRED',
      'X-Service-Request is required on a prepared request: ' +
        'choose a private random key (32 to 128 characters of A-Z a-z 0-9 _ -), ' +
        'keep it secret and send the same value on every retry. ' +
        'Do not sign any payment without it: the payment nonce is bound to it, ' +
        'and a payment signed for another nonce is refused.',
      { header: 'X-Service-Request' },
    );
  }
  if (!ServiceRequestKey.is(value)) {
    throw new Refusal(
      'SERVICE_REQUEST_INVALID',
      'X-Service-Request must be 32 to 128 characters of A-Z a-z 0-9 _ - (a private random key); ' +
        'do not sign a payment until it is accepted',
      { header: 'X-Service-Request' },
    );
  }
  return value;
}

export const keySha256 = (key: string) => sha256Hex(key);
