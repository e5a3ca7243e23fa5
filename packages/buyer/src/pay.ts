import { chainIdOf } from '@rights-preflight/wire/payment/x402-constants.js';
import { encodePaymentSignature } from '@rights-preflight/wire/payment/x402-headers.js';
import { checksumAddress } from './address.js';
import type { BuyerContext } from './context.js';
import { checkOffer, type CheckedOffer } from './offer.js';
import type { BuyerCheckpoint } from './checkpoint-store.js';
import { EIP3009_TYPES } from './typed-data.js';
import { BuyerRefused } from './errors.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';

// The pay step: check the 402 offer, reserve the budget, sign EIP-3009 with exactly the bound nonce, and
// seal the checkpoint before anything is sent — in that order (docs/decisions.md, "Buyer client").

/**
 * validBefore for an offer: as far ahead as the offer allows (maxTimeoutSeconds), which the service keeps
 * at least a minute past its settlement window (capabilities `payment.settlement_window_seconds`, docs/wire.md
 * §4), so the payment is never refused PAYMENT_WINDOW_TOO_SHORT for a slow send. An offer shorter than a
 * window the buyer has read could never be settled: nothing is signed.
 */
export function validBeforeFor(nowSeconds: number, maxTimeoutSeconds: number, settlementWindowSeconds?: number) {
  if (settlementWindowSeconds !== undefined && maxTimeoutSeconds < settlementWindowSeconds)
    throw new BuyerRefused(
      'OFFER_WINDOW_TOO_SHORT',
      `the offer allows ${maxTimeoutSeconds} s, the service needs ${settlementWindowSeconds} s to settle`,
    );
  return String(nowSeconds + maxTimeoutSeconds);
}

/** The PAYMENT-SIGNATURE header for a checked offer. */
async function signOffer(ctx: BuyerContext, offer: CheckedOffer): Promise<string> {
  const req = offer.requirements;
  const validBefore = validBeforeFor(Math.floor(Date.now() / 1000), req.maxTimeoutSeconds, ctx.settlementWindowSeconds);
  const authorization = {
    from: checksumAddress(ctx.account.address),
    to: checksumAddress(req.payTo),
    value: req.amount,
    validAfter: '0',
    validBefore,
    nonce: offer.nonce,
  };
  const signature = await ctx.account.signTypedData({
    domain: {
      name: offer.eip712.name,
      version: offer.eip712.version,
      chainId: chainIdOf(req.network)!,
      verifyingContract: checksumAddress(req.asset),
    },
    types: EIP3009_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: 0n,
      validBefore: BigInt(validBefore),
    },
  });
  return encodePaymentSignature({
    x402Version: 2,
    resource: offer.paymentRequired.resource,
    accepted: req,
    payload: { signature, authorization },
    ...(offer.paymentRequired.extensions ? { extensions: offer.paymentRequired.extensions } : {}),
  });
}

export interface PaymentTerms {
  flow: BuyerCheckpoint['flow'];
  /** The path the payment is sent to (report URL, or the preflight or gate endpoint). */
  path: string;
  /** The binding key (claim token or X-Service-Request value). */
  key: string;
  /** Preflight and gate: the request body to resend. */
  body?: Record<string, unknown>;
  /** The 402's PAYMENT-REQUIRED header. */
  offerHeader: string | null;
  expect: { amount: string; purchase_id?: string; resource: string; input_sha256: string };
}

/**
 * Reserves the offer's amount, signs it and seals the checkpoint before anything is sent — the tail both
 * `pay` (a checked 402 offer) and `payUpfront` (the offer computed from the pins) share.
 */
async function reserveSignAndSeal(
  ctx: BuyerContext,
  terms: PaymentTerms,
  purchaseId: string,
  offer: CheckedOffer,
): Promise<BuyerCheckpoint> {
  const x = terms.expect;
  const req = offer.requirements;
  ctx.budget.reserve(BigInt(req.amount));
  let header: string;
  try {
    header = await signOffer(ctx, offer);
  } catch (err) {
    ctx.budget.release(BigInt(req.amount));
    throw err;
  }
  ctx.log({ step: 'signed', purchase_id: purchaseId, nonce_bound: true });
  const cp: BuyerCheckpoint = {
    version: 'buyer-checkpoint-v1',
    flow: terms.flow,
    purchase_id: purchaseId,
    base_url: ctx.baseUrl,
    path: terms.path,
    key: terms.key,
    ...(terms.body ? { body: terms.body } : {}),
    payment_signature: header,
    expected: {
      network: req.network,
      asset: req.asset,
      pay_to: req.payTo,
      amount: req.amount,
      payer: ctx.account.address,
      nonce: offer.nonce,
      resource: x.resource,
      input_sha256: x.input_sha256,
    },
    offer_receipt: offer.receipt,
    created_at: new Date().toISOString(),
  };
  await ctx.store.save(cp);
  ctx.log({ step: 'checkpoint.saved', purchase_id: purchaseId });
  return cp;
}

/** Checks the offer, reserves budget, signs, and persists the encrypted checkpoint — in that order. */
export async function pay(ctx: BuyerContext, terms: PaymentTerms): Promise<BuyerCheckpoint> {
  const x = terms.expect;
  const offer = checkOffer(terms.offerHeader, ctx.pins, {
    ...x,
    key: terms.key,
    maxPerReportMicro: ctx.budget.maxPerReport,
  });
  const purchaseId = (offer.receipt.payload as { purchase_id: string }).purchase_id;
  const req = offer.requirements;
  ctx.log({
    step: 'offer.ok',
    purchase_id: purchaseId,
    amount_micro: req.amount,
    pay_to: req.payTo,
    network: req.network,
  });
  return reserveSignAndSeal(ctx, terms, purchaseId, offer);
}

/** The offer's terms a payment made before any 402 must match: capabilities `paid_requests` and `payment`. */
export interface UpfrontTerms {
  maxTimeoutSeconds: number;
  eip712: { name: string; version: string };
}

/**
 * Pays on the first request, without a 402 (docs/wire.md, "Rate limits"): the buyer computes the offer the
 * service will make — the pinned terms, the published price, the bound nonce — signs it, and seals the
 * checkpoint before anything is sent, as `pay` does. There is no signed offer receipt to check or keep:
 * the delivery proof signs the same settlement terms and `deliver` verifies them against these.
 */
export async function payUpfront(
  ctx: BuyerContext,
  terms: PaymentTerms & { purchase_id: string; upfront: UpfrontTerms },
): Promise<BuyerCheckpoint> {
  const x = terms.expect;
  const amount = BigInt(x.amount);
  ctx.budget.assertAffordable(amount);
  const requirements = {
    scheme: 'exact',
    network: ctx.pins.network,
    asset: ctx.pins.asset,
    payTo: ctx.pins.recipient,
    amount: x.amount,
    maxTimeoutSeconds: terms.upfront.maxTimeoutSeconds,
    extra: { name: terms.upfront.eip712.name, version: terms.upfront.eip712.version },
  };
  const nonce = boundNonce({ resource: x.resource, key: terms.key, input_sha256: x.input_sha256 });
  // The offer the service will make, as checkOffer would have answered it (no signed receipt: none exists yet;
  // it expires no sooner than the authorization's window, so a window chosen from it is the usual one).
  const offer = {
    paymentRequired: { x402Version: 2, resource: { url: x.resource }, accepts: [requirements] },
    requirements,
    nonce,
    receipt: null,
    binding: { resource: x.resource, input_sha256: x.input_sha256, nonce, key_source: 'x-service-request' },
    eip712: terms.upfront.eip712,
    expiresAt: new Date(Date.now() + terms.upfront.maxTimeoutSeconds * 1000).toISOString(),
  } as unknown as CheckedOffer;
  return reserveSignAndSeal(ctx, terms, terms.purchase_id, offer);
}
