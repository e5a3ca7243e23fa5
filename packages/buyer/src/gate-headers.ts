import { checksumAddress } from './address.js';
import type { BuyerAccount } from './account.js';
import { siweMessage } from './siwe-message.js';
import {
  PAYMENT_INTENT_VERSION,
  type PaymentIntent,
  type SiwxProof,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import { siwxChallenge, type SiwxBinding } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import { utf8ToBase64 } from '@rights-preflight/wire/crypto/base64url.js';

// The two headers a gate buyer sends before it may be offered a payment (spec §5.5, docs/wire.md):
// the unsigned payment intent and the sign-in proof of profile service-siwx-payment-v1. The EIP-4361
// text is rendered by ./siwe-message.ts (browser-safe); the service verifies with the x402
// extension's formatter, and packages/buyer/test/siwe-message.test.ts holds the two to the same text.

/** The intent as the codec states it (the service refuses any other shape or network). */
export function paymentIntentHeader(i: {
  payer: string;
  resource: string;
  input_sha256: string;
  network: string;
}): string {
  const intent = {
    version: PAYMENT_INTENT_VERSION,
    payer: i.payer,
    resource: i.resource,
    input_sha256: i.input_sha256,
    network: i.network,
  } as PaymentIntent;
  return utf8ToBase64(JSON.stringify(intent));
}

/** The SIWX payload for `binding`, signed with EIP-191 by `account`. */
export async function signInWithX(
  account: Pick<BuyerAccount, 'address' | 'signMessage'>,
  binding: SiwxBinding,
  issuedAt = new Date(),
): Promise<SiwxProof> {
  const info = siwxChallenge(binding, issuedAt.toISOString());
  const chainId = chainIdOf(info.chainId);
  if (chainId === undefined) throw new TypeError(`${info.chainId} is not an eip155 network`);
  const address = checksumAddress(account.address);
  const message = siweMessage({
    domain: info.domain,
    address,
    statement: info.statement,
    uri: info.uri,
    version: '1',
    chainId,
    nonce: info.nonce,
    issuedAt,
    resources: info.resources,
  });
  const signature = await account.signMessage({ message });
  return {
    domain: info.domain,
    address,
    statement: info.statement,
    uri: info.uri,
    version: '1',
    chainId: info.chainId,
    type: 'eip191',
    nonce: info.nonce,
    issuedAt: info.issuedAt,
    resources: info.resources ?? [],
    signatureScheme: 'eip191',
    signature,
  };
}

export const signInWithXHeader = async (...a: Parameters<typeof signInWithX>): Promise<string> =>
  utf8ToBase64(JSON.stringify(await signInWithX(...a)));
