import { getAddress, isAddress, recoverTypedDataAddress, type Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { authorizationTypes } from '@x402/evm';
import { NONCE_PREFIX } from './binding.js';

// Every check DESIGN.md §4 requires before a payment authorization may be checkpointed, each with its
// own refusal code. Pure apart from signature recovery; balance and simulation are the facilitator's.
// Minimal version written by the money-path owner because it was needed before the payment owner's landed.

export interface Eip3009Authorization { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex }
export type AuthorizationCheck =
  | { ok: true; authorization: Eip3009Authorization; signature: Hex }
  | { ok: false; code: string; message: string };

export interface VerifyAuthorizationInput {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  expectedNonce: Hex;
  maxTotalMicro: string;
  now: Date;
  /** Clock skew tolerated on the upper end of the window (the buyer signs a moment before we see it). */
  skewSeconds?: number;
}

/** FiatToken needs now < validBefore; the facilitator wants 6 s of margin to get it mined. */
const WINDOW_MARGIN_SECONDS = 6;
const refuse = (code: string, message: string): AuthorizationCheck => ({ ok: false, code, message });
const sameAddress = (a: unknown, b: string) => typeof a === 'string' && isAddress(a) && getAddress(a) === getAddress(b);
const uint = (s: unknown) => typeof s === 'string' && /^(0|[1-9][0-9]{0,77})$/.test(s);

export async function verifyAuthorization(i: VerifyAuthorizationInput): Promise<AuthorizationCheck> {
  const { payload: p, requirements: r } = i;
  if (p.x402Version !== 2) return refuse('X402_VERSION_UNSUPPORTED', 'only x402 version 2 payments are accepted');
  const acc = p.accepted as Partial<PaymentRequirements> | undefined;
  if (!acc || typeof acc !== 'object') return refuse('PAYMENT_PAYLOAD_INVALID', 'the payment has no accepted requirements');
  if (acc.scheme !== 'exact' || r.scheme !== 'exact') return refuse('SCHEME_MISMATCH', 'only the exact scheme is accepted');
  if (acc.network !== r.network) return refuse('NETWORK_MISMATCH', `the payment is for network ${String(acc.network)}, the offer for ${r.network}`);
  if (!sameAddress(acc.asset, r.asset)) return refuse('ASSET_MISMATCH', 'the payment is for another asset than the offer');
  const inner = p.payload as { authorization?: Partial<Eip3009Authorization>; signature?: unknown };
  const a = inner?.authorization;
  if (!a || typeof a !== 'object' || typeof inner.signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(inner.signature)) {
    return refuse('PAYMENT_PAYLOAD_INVALID', 'the payment is not an EIP-3009 authorization with a signature');
  }
  if (!sameAddress(a.from, a.from as string) || !uint(a.value) || !uint(a.validAfter) || !uint(a.validBefore) || typeof a.nonce !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(a.nonce)) {
    return refuse('PAYMENT_PAYLOAD_INVALID', 'the authorization fields are malformed');
  }
  if (!sameAddress(a.to, r.payTo) || !sameAddress(acc.payTo, r.payTo)) return refuse('RECIPIENT_MISMATCH', 'the payment is to another recipient than the offer');
  const value = BigInt(a.value!);
  const price = BigInt(r.amount);
  if (acc.amount !== r.amount) return refuse('AMOUNT_MISMATCH', 'the accepted amount differs from the offer');
  if (value < price) return refuse('AMOUNT_BELOW_PRICE', 'the authorized amount is below the offered price');
  if (value > price) return refuse('AMOUNT_ABOVE_PRICE', 'the authorized amount is above the offered price (the exact price is required)');
  if (value > BigInt(i.maxTotalMicro)) return refuse('AMOUNT_ABOVE_BUDGET', 'the authorized amount is above the buyer\'s max_total_micro');
  const now = Math.floor(i.now.getTime() / 1000);
  if (BigInt(a.validAfter!) > BigInt(now)) return refuse('PAYMENT_NOT_YET_VALID', 'the authorization is not valid yet (validAfter is in the future)');
  if (BigInt(a.validBefore!) < BigInt(now + WINDOW_MARGIN_SECONDS)) return refuse('PAYMENT_WINDOW_EXPIRED', 'the authorization window has passed (validBefore)');
  if (BigInt(a.validBefore!) > BigInt(now + r.maxTimeoutSeconds + (i.skewSeconds ?? 60))) {
    return refuse('PAYMENT_WINDOW_TOO_LONG', `validBefore must be at most maxTimeoutSeconds (${r.maxTimeoutSeconds}) from now`);
  }
  const nonce = a.nonce.toLowerCase();
  if (nonce !== i.expectedNonce.toLowerCase()) {
    return nonce.startsWith(NONCE_PREFIX)
      ? refuse('NONCE_BOUND_TO_OTHER_REQUEST', 'the payment nonce is bound to another request or report')
      : refuse('NONCE_NOT_BOUND', 'the payment nonce is not the bound nonce of this offer (an unmodified random-nonce x402 client cannot pay here)');
  }
  let signer: Hex;
  try {
    signer = await recoverTypedDataAddress({
      domain: { name: String(r.extra.name), version: String(r.extra.version), chainId: Number(r.network.split(':')[1]), verifyingContract: getAddress(r.asset) },
      types: authorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message: { from: getAddress(a.from!), to: getAddress(a.to!), value, validAfter: BigInt(a.validAfter!), validBefore: BigInt(a.validBefore!), nonce: a.nonce as Hex },
      signature: inner.signature as Hex,
    });
  } catch {
    return refuse('SIGNATURE_INVALID', 'the EIP-712 signature cannot be parsed');
  }
  if (getAddress(signer) !== getAddress(a.from!)) return refuse('SIGNATURE_INVALID', 'the EIP-712 signature is not by the payer (from)');
  return {
    ok: true,
    authorization: { from: getAddress(a.from!), to: getAddress(a.to!), value: a.value!, validAfter: a.validAfter!, validBefore: a.validBefore!, nonce: nonce as Hex },
    signature: inner.signature as Hex,
  };
}
