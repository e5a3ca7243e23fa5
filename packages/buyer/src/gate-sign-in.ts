import { SIWX_MAX_AGE_SECONDS } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { checksumAddress } from './address.js';
import type { BuyerContext } from './context.js';
import { paymentIntentHeader, signInWithXHeader } from './gate-headers.js';

// The private headers of a gate request: the retry key, the payment intent and the sign-in proof. A
// proof is not a payment: it is cached by purchase id and re-signed when stale (a resume may come long
// after the first send), while the payment header is never re-signed.

async function gateSignIn(
  ctx: BuyerContext,
  purchase: string,
  binding: { gateUrl: string; key: string; inputSha256: string; network: string },
): Promise<string> {
  const cached = ctx.signIns.get(purchase);
  if (cached && Date.now() - cached.at < (SIWX_MAX_AGE_SECONDS - 120) * 1000) return cached.header;
  const header = await signInWithXHeader(ctx.account, binding);
  ctx.signIns.set(purchase, { header, at: Date.now() });
  ctx.log({ step: 'signed-in', purchase_id: purchase });
  return header;
}

export const gateHeaders = async (
  ctx: BuyerContext,
  purchase: string,
  key: string,
  x: { resource: string; input_sha256: string; network: string },
) => ({
  'x-service-request': key,
  'x-service-payment-intent': paymentIntentHeader({
    payer: checksumAddress(ctx.account.address),
    resource: x.resource,
    input_sha256: x.input_sha256,
    network: x.network,
  }),
  'sign-in-with-x': await gateSignIn(ctx, purchase, {
    gateUrl: x.resource,
    key,
    inputSha256: x.input_sha256,
    network: x.network,
  }),
});
