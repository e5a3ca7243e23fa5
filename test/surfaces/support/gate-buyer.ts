import { randomBytes } from 'node:crypto';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { siwxChallenge } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { normalizeGateRequest } from '../../../src/products/ingestion-gate/normalize.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { IngestionGateRequest } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { paymentIntentHeader } from '@rights-preflight/buyer';

// A service-aware gate buyer (spec §5.5): it computes input_sha256 of its own normalized body, writes
// the unsigned payment intent, and signs in with the x402 sign-in-with-x client helper over the
// challenge the profile fixes. Every part can be swapped to build exactly one wrong thing.

export const newKey = () => randomBytes(32).toString('base64url');

export function gateInputSha256(body: unknown, coveredOrigins: string[]): string {
  return normalizeGateRequest(decodeOrThrow(IngestionGateRequest, body), coveredOrigins).input_sha256;
}

export const intentHeader = (i: { payer: string; resource: string; input_sha256: string; network?: string }) =>
  paymentIntentHeader({ ...i, network: i.network ?? 'eip155:8453' });

export async function siwxHeader(o: {
  signerKey: Hex;
  gateUrl: string;
  key: string;
  inputSha256: string;
  network?: string;
  issuedAt?: string;
}): Promise<string> {
  const account = privateKeyToAccount(o.signerKey);
  const info = siwxChallenge(
    { gateUrl: o.gateUrl, key: o.key, inputSha256: o.inputSha256, network: o.network ?? 'eip155:8453' },
    o.issuedAt ?? new Date().toISOString(),
  );
  return encodeSIWxHeader(await createSIWxPayload(info, account, o.gateUrl));
}

/** All three gate headers for `payerKey`, for `body`, under `key`. */
export async function gateHeaders(o: {
  url: string;
  body: unknown;
  key: string;
  payerKey: Hex;
  coveredOrigins: string[];
}): Promise<Record<string, string>> {
  const gateUrl = `${o.url}/v1/rights/ingestion-gate`;
  const inputSha256 = gateInputSha256(o.body, o.coveredOrigins);
  const payer = privateKeyToAccount(o.payerKey).address;
  return {
    'x-service-request': o.key,
    'x-service-payment-intent': intentHeader({ payer, resource: gateUrl, input_sha256: inputSha256 }),
    'sign-in-with-x': await siwxHeader({ signerKey: o.payerKey, gateUrl, key: o.key, inputSha256 }),
  };
}
