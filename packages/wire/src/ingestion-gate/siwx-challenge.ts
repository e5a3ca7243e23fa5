import { GATE_SIWX_PROFILE } from '../contract/ingestion-gate.js';
import { boundNonce, NONCE_PREFIX } from '../payment/binding.js';

// The challenge of profile `service-siwx-payment-v1` (rules in ./siwx.ts): every field but the signer's
// address and issuedAt is fixed by the request, so the buyer computes it itself and the service
// recomputes it to verify. Browser-safe (the buyer client signs it in a page).

export const SIWX_STATEMENT =
  `Sign in as the payer of one rights ingestion-gate request (${GATE_SIWX_PROFILE}). ` +
  'This is not a payment authorization.';
export const SIWX_MAX_AGE_SECONDS = 900;

export const inputResourceUrn = (inputSha256: string) => `urn:service-request:input-sha256:${inputSha256}`;

export interface SiwxBinding {
  gateUrl: string;
  key: string;
  inputSha256: string;
  network: string;
}

/**
 * The challenge's fields: the x402 extension's `CompleteSIWxInfo` for an EVM chain, spelled here so the
 * leaf (and the buyer package) need not depend on `@x402/extensions`.
 */
export interface SiwxChallenge {
  domain: string;
  uri: string;
  statement: string;
  version: '1';
  nonce: string;
  issuedAt: string;
  resources: string[];
  chainId: string;
  type: 'eip191';
}

/** The message fields a buyer must sign for this request (everything but its address and issuedAt). */
export function siwxChallenge(b: SiwxBinding, issuedAt: string): SiwxChallenge {
  return {
    domain: new URL(b.gateUrl).host,
    uri: b.gateUrl,
    statement: SIWX_STATEMENT,
    version: '1',
    nonce: boundNonce({ resource: b.gateUrl, key: b.key, input_sha256: b.inputSha256 }).slice(NONCE_PREFIX.length),
    issuedAt,
    resources: [b.gateUrl, inputResourceUrn(b.inputSha256)],
    chainId: b.network,
    type: 'eip191',
  };
}
