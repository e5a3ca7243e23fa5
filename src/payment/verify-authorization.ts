import { getAddress, parseSignature, type Hex } from 'viem';
import { authorizationDigest } from '@rights-preflight/wire/payment/authorization-digest.js';
import { recoverSignerOf } from './recovered-signers.js';
import { isLeft } from 'fp-ts/lib/Either.js';
import { AUTHORIZATION_REFUSALS, type AuthorizationRefusalCode } from './authorization-refusals.js';
import { looksBound } from '@rights-preflight/wire/payment/binding.js';
import { chainIdOf, SCHEME_EXACT, X402_VERSION } from '@rights-preflight/wire/payment/x402-constants.js';
import { PaymentPayload, type Eip3009Authorization } from '@rights-preflight/wire/payment/x402-wire.js';
import { firstProblem } from '@rights-preflight/wire/contract/decode.js';
import { WINDOW_MARGIN_SECONDS } from './settlement-window.js';

// Every check a payment authorization must pass before it may be checkpointed, each with
// its own refusal code (src/payment/authorization-refusals.ts). Pure: no I/O, the clock is an input,
// the signature is recovered locally (ecrecover). What needs the chain — balance, nonce not yet used,
// the token really answering to this domain — is the settlement backend's verify, which runs after.
//
// Order (first failure wins): version → shape → scheme → network → asset → recipient → amount →
// budget → rest of `accepted` → window (not yet valid, expired, shorter than the settlement window, too
// long) → bound nonce → signature. The offer-identity checks come
// first so a buyer paying the wrong offer hears that, not a secondary symptom; the signature comes
// last because it is the only costly check.

export type { Eip3009Authorization };
export type AuthorizationCheck =
  | { ok: true; payload: PaymentPayload; authorization: Eip3009Authorization; signature: Hex }
  | { ok: false; code: AuthorizationRefusalCode; message: string };

/** The offer as we made it (x402 PaymentRequirements; @x402/core's type fits). */
interface OfferedRequirements {
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra: Record<string, unknown>;
}

interface VerifyAuthorizationInput {
  /** The decoded PAYMENT-SIGNATURE JSON, not yet trusted. */
  payload: unknown;
  requirements: OfferedRequirements;
  /** boundNonce(...) of this purchase. */
  expectedNonce: Hex;
  /** The buyer's cap from the quote, integer micro-USDC as a string. */
  maxTotalMicro: string;
  now: Date;
  /**
   * The settlement window (./settlement-window.ts, published in capabilities): validBefore must leave at
   * least this much, or the relayer's fee bumps could be mined after it and revert at our expense.
   */
  settlementWindowSeconds: number;
  /** Clock skew tolerated on the far end of the window (the buyer's clock may run ahead). Default 60 s. */
  skewSeconds?: number;
}

export { WINDOW_MARGIN_SECONDS };
const DEFAULT_SKEW_SECONDS = 60;
/** secp256k1 n / 2: FiatToken's ECRecover rejects signatures with a higher s (EIP-2 malleability). */
const HALF_CURVE_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

const refuse = (code: AuthorizationRefusalCode, detail?: string): AuthorizationCheck => ({
  ok: false,
  code,
  message: detail ? `${AUTHORIZATION_REFUSALS[code]}: ${detail}` : AUTHORIZATION_REFUSALS[code],
});
const same = (a: string, b: string) => getAddress(a) === getAddress(b);

export async function verifyAuthorization(i: VerifyAuthorizationInput): Promise<AuthorizationCheck> {
  const r = i.requirements;
  const raw = i.payload as { x402Version?: unknown } | null;
  if (typeof raw !== 'object' || raw === null) return refuse('PAYMENT_PAYLOAD_INVALID', 'not a JSON object');
  if (raw.x402Version !== X402_VERSION)
    return refuse('X402_VERSION_UNSUPPORTED', `got x402Version ${JSON.stringify(raw.x402Version ?? null)}`);
  const decoded = PaymentPayload.decode(raw);
  if (isLeft(decoded)) return refuse('PAYMENT_PAYLOAD_INVALID', firstProblem(decoded.left, 'payload'));
  const p = decoded.right;
  const acc = p.accepted;
  const a = p.payload.authorization;

  if (acc.scheme !== SCHEME_EXACT || r.scheme !== SCHEME_EXACT) return refuse('SCHEME_MISMATCH', `got ${acc.scheme}`);
  if (acc.network !== r.network)
    return refuse('NETWORK_MISMATCH', `the payment is for ${acc.network}, the offer for ${r.network}`);
  if (!same(acc.asset, r.asset)) return refuse('ASSET_MISMATCH', `the offer is for ${getAddress(r.asset)}`);
  if (!same(a.to, r.payTo) || !same(acc.payTo, r.payTo))
    return refuse('RECIPIENT_MISMATCH', `the offer pays ${getAddress(r.payTo)}`);

  const price = BigInt(r.amount);
  const value = BigInt(a.value);
  if (acc.amount !== r.amount) return refuse('AMOUNT_MISMATCH', `the offer is ${r.amount}`);
  if (value < price) return refuse('AMOUNT_BELOW_PRICE', `the price is ${r.amount}`);
  if (value > price) return refuse('AMOUNT_ABOVE_PRICE', `the price is ${r.amount}`);
  if (value > BigInt(i.maxTotalMicro)) return refuse('AMOUNT_ABOVE_BUDGET', `max_total_micro is ${i.maxTotalMicro}`);

  // The rest of `accepted` must be the offer too; as in the x402 SDK, the buyer may add `extra` keys
  // but not change ours (the EIP-712 name/version the signature is made over).
  if (acc.maxTimeoutSeconds !== r.maxTimeoutSeconds)
    return refuse('ACCEPTED_REQUIREMENTS_MISMATCH', 'maxTimeoutSeconds differs');
  for (const [k, v] of Object.entries(r.extra)) {
    if (JSON.stringify(acc.extra[k]) !== JSON.stringify(v))
      return refuse('ACCEPTED_REQUIREMENTS_MISMATCH', `extra.${k} differs`);
  }

  const now = BigInt(Math.floor(i.now.getTime() / 1000));
  const validAfter = BigInt(a.validAfter);
  const validBefore = BigInt(a.validBefore);
  if (validAfter > now) return refuse('PAYMENT_NOT_YET_VALID');
  if (validBefore < now + BigInt(WINDOW_MARGIN_SECONDS)) return refuse('PAYMENT_WINDOW_EXPIRED');
  if (validBefore < now + BigInt(i.settlementWindowSeconds))
    return refuse(
      'PAYMENT_WINDOW_TOO_SHORT',
      `validBefore must be at least ${i.settlementWindowSeconds} s from now ` +
        '(settlement_window_seconds); nothing was charged',
    );
  if (validBefore > now + BigInt(r.maxTimeoutSeconds + (i.skewSeconds ?? DEFAULT_SKEW_SECONDS))) {
    return refuse('PAYMENT_WINDOW_TOO_LONG', `at most ${r.maxTimeoutSeconds} s from now`);
  }

  const nonce = a.nonce.toLowerCase() as Hex;
  if (nonce !== i.expectedNonce.toLowerCase()) {
    return looksBound(nonce)
      ? refuse('NONCE_BOUND_TO_OTHER_REQUEST', 'this authorization was made for another report; nothing was charged')
      : refuse(
          'NONCE_NOT_BOUND',
          'an unmodified random-nonce x402 client is not compatible with this service; ' +
            "sign the nonce from the offer's service-request-binding extension. Nothing was charged",
        );
  }

  const signature = p.payload.signature;
  const signer = await recoverSigner(r, a, signature);
  if (!signer) return refuse('SIGNATURE_INVALID', 'not a valid 65-byte ECDSA signature with low s');
  if (!same(signer, a.from)) return refuse('SIGNATURE_INVALID');

  return {
    ok: true,
    payload: p,
    authorization: { ...a, from: getAddress(a.from), to: getAddress(a.to), nonce },
    signature,
  };
}

/** ecrecover over the EIP-712 digest with the offer's domain; undefined if the signature cannot be used on chain. */
async function recoverSigner(
  r: OfferedRequirements,
  a: Eip3009Authorization,
  signature: Hex,
): Promise<Hex | undefined> {
  const chainId = chainIdOf(r.network);
  const name = r.extra.name;
  const version = r.extra.version;
  if (chainId === undefined || typeof name !== 'string' || typeof version !== 'string') {
    throw new Error('the offer has no EIP-712 domain (extra.name/version) or no eip155 network');
  }
  // Only EOA signatures: FiatToken's 65-byte path (v, r, s); smart-wallet (EIP-1271) payers are not accepted.
  if (signature.length !== 132) return undefined;
  let parts: ReturnType<typeof parseSignature>;
  try {
    parts = parseSignature(signature);
  } catch {
    return undefined;
  }
  if (BigInt(parts.s) > HALF_CURVE_ORDER || BigInt(parts.r) === 0n || BigInt(parts.s) === 0n) return undefined;
  const digest = authorizationDigest(a, { name, version, chainId, asset: r.asset });
  try {
    return await recoverSignerOf(digest, signature);
  } catch {
    return undefined;
  }
}
