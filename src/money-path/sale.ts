import { Refusal } from '@rights-preflight/wire/refusal.js';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { initialState as initialPurchaseState, purchaseId, type PurchaseState } from '../../streams/purchase/index.js';
import { assertWithinBudget } from '../pricing/budget.js';
import { claimSha256, claimTokenFor } from './claim.js';
import type { Hex, MoneyPathDeps } from './deps.js';
import type { AdmissionQuestion, Admit } from './paid-admission.js';
import { paymentTermsOnWire } from './payment-terms.js';
import type { Asked, Product, QuotedOf, Sku } from './product.js';
import { loadPurchase, recordQuote } from './purchase-stream.js';
import { randomKeyHex } from './random-key.js';
import { redeem } from './redeem.js';
import type { Redemption } from './redemption.js';
import { reportPath } from './report-path.js';
import { keySha256, requireServiceRequestKey } from './request-key.js';
import type { ResumeDeps } from './resume.js';
import { signQuote } from './signed-quote.js';

// The sale, once for every product (docs/decisions.md, "One sale flow"):
//   normalize → budget (before any fetch or append) → the product's own checks and paid admission
//   → purchase id {sku, sha256(key), input_sha256} → load → (first time) observe → assess → sign → record
//   → redeem (offer, or the bound payment → checkpoint → settle → deliver).
// A product supplies the steps that differ (./product.ts); what a product shows a buyer of its purchase
// (its quote answer, its discovery) is built from the handles below, so no product reaches further into
// the money path than this file and the product interface.

export type { Admit, AdmissionQuestion } from './paid-admission.js';
export type { Redemption } from './redemption.js';
export type { Hex, MoneyPathDeps, PaymentTerms } from './deps.js';
export { loadPurchase } from './purchase-stream.js';
export { paymentTermsOnWire } from './payment-terms.js';
export { requireServiceRequestKey } from './request-key.js';
export { NONCE_PREFIX } from '@rights-preflight/wire/contract/offer.js';

/** What a sale needs: the money path's deps (store, keys, terms, settlement) and the product's observer. */
export type SaleDeps<ObserveDeps> = ResumeDeps & ObserveDeps;

/** Any product, as the sale flow drives it: its own types meet at its `Product` declaration. */
type Sold<S extends Sku, R, N extends Asked<S>, D, U> = Product<S, R, N, D, QuotedOf<S>['reading'], U>;

/** What a quote comes to: a quoted purchase stream, or the product's free answer (no fee, nothing stored). */
export type QuoteOutcome<U> = { kind: 'quoted'; state: PurchaseState } | { kind: 'unavailable'; body: U };

/** What a sale comes to: a redemption (offer or delivery), or the product's free answer. */
export type SaleOutcome<U> = Redemption | { kind: 'unavailable'; body: U };

/** The request in its normal form, within the buyer's budget; refused before anything is fetched or stored. */
export function ask<S extends Sku, R, N extends Asked<S>, D, U>(
  deps: Pick<MoneyPathDeps, 'coveredOrigins' | 'baseUrl'>,
  product: Sold<S, R, N, D, U>,
  request: R,
): N {
  const asked = product.normalize(request, deps);
  assertWithinBudget(asked.price_micro, asked.max_total_micro);
  return asked;
}

/** The paid-admission question of a request: the binding resource is the `Quoted` input's. */
export const admissionOf = (
  asked: Pick<Asked, 'input_sha256' | 'price_micro' | 'max_total_micro'> & { input: { resource: string } },
  key: string,
): AdmissionQuestion => ({
  resource: asked.input.resource,
  key,
  inputSha256: asked.input_sha256,
  priceMicro: asked.price_micro,
  maxTotalMicro: asked.max_total_micro,
});

/**
 * The quote of an asked request: the purchase id from {sku, sha256(key), input_sha256}; a stream already
 * quoted answers as it stands (an identical request raced or came again), else the product observes,
 * assesses, and the quote is signed and recorded. `key` undefined: a fresh 256-bit key (nothing to find).
 */
export async function quoteSale<S extends Sku, R, N extends Asked<S>, D, U>(
  deps: SaleDeps<D>,
  product: Sold<S, R, N, D, U>,
  asked: N,
  opts: {
    key: string | undefined;
    /** The digest a reader presents at the report URL: of the HMAC claim, or of the key when the key is the
     * credential. */
    claimSha256?: (id: string, key: string) => string;
    /** The signed-in payer the purchase is pinned to (the ingestion gate). */
    payer?: Hex;
  },
): Promise<QuoteOutcome<U>> {
  const key = opts.key ?? randomKeyHex();
  const id = purchaseId({ sku: product.sku, key_sha256: sha256Hex(key), input_sha256: asked.input_sha256 });
  // A fresh random key's purchase has no stream (256 bits: nobody else can name it), so it is not read; a key
  // the buyer sent may have quoted before. Either way the state is decided on unread below, and the append at
  // its revision is the check (a race reads the stream afresh and goes on from the stored quote).
  let known: PurchaseState = initialPurchaseState;
  if (opts.key !== undefined) {
    known = await loadPurchase(deps.store, id);
    if (known.quoted) return { kind: 'quoted', state: known };
  }
  const reading = await product.observe(deps, asked);
  const assessed = product.assess(asked, reading, id);
  if (!assessed.available) return { kind: 'unavailable', body: assessed.body };
  const { signedQuote, expiresAt } = signQuote(deps, asked.price_micro, {
    purchase_id: id,
    sku: product.sku,
    ...assessed.subject,
    ...(opts.payer ? { payer: opts.payer } : {}),
  });
  const claim = opts.claimSha256 ? opts.claimSha256(id, key) : keySha256(key);
  // Two identical requests may race: the second finds the stream quoted and asks nothing, so both go on
  // from the stored quote (an offer to another signed-in payer is refused by decide).
  const state = await recordQuote(
    deps,
    {
      purchase_id: id,
      sku: product.sku,
      input: asked.input,
      input_sha256: asked.input_sha256,
      max_total_micro: asked.max_total_micro,
      price_micro: asked.price_micro.toString(),
      decision_preview: assessed.preview,
      signed_quote: signedQuote,
      expires_at: expiresAt,
      claim_sha256: claim,
      reading,
      ...(opts.payer ? { payer: opts.payer } : {}),
    } as QuotedOf<Sku>,
    { retryOnConflict: 1, known },
  );
  // Quote was decided or was already recorded, so only a stream nobody could write is still none.
  if (state.status === 'none') throw new Error(`purchase ${id} has no quote after Quote`);
  return { kind: 'quoted', state };
}

/** A key-bound sale's call: the buyer's X-Service-Request is the purchase key, the claim and the binding key. */
export interface SaleCall<Request, Normalized = Asked> {
  request: Request;
  serviceRequest: string | undefined;
  paymentSignature: string | undefined;
  /** Paid or free work (./paid-admission.ts), decided before anything is fetched. */
  admit?: Admit;
  /**
   * The product's own checks of the call, around its paid admission (the gate's payment intent before it,
   * its sign-in proof after): they call `admit` once and answer the payer the purchase is pinned to.
   */
  vouch?: (asked: Normalized, key: string, admit: () => Promise<void>) => Promise<Hex | undefined>;
}

/** What a key-bound POST carries besides its request: the buyer's key, its payment, its paid admission. */
export type KeyBound = Pick<SaleCall<unknown>, 'serviceRequest' | 'paymentSignature' | 'admit'>;

/**
 * A key-bound sale end to end: ask → X-Service-Request → the product's checks and paid admission → quote
 * (first time) → redeem with the key as binding (x-service-request): the 402 offer, or the paid result for
 * a bound PAYMENT-SIGNATURE.
 */
export async function sell<S extends Sku, R, N extends Asked<S>, D, U>(
  deps: SaleDeps<D>,
  product: Sold<S, R, N, D, U>,
  call: SaleCall<R, N>,
): Promise<SaleOutcome<U>> {
  const asked = ask(deps, product, call.request);
  const key = requireServiceRequestKey(call.serviceRequest);
  const admit = async () => {
    await call.admit?.(admissionOf(asked, key));
  };
  const payer = call.vouch ? await call.vouch(asked, key, admit) : await admit();
  const quoted = await quoteSale(deps, product, asked, { key, ...(payer ? { payer } : {}) });
  if (quoted.kind === 'unavailable') return quoted;
  const { state } = quoted;
  // Same id but not key-bound: a quote made with this value as its Idempotency-Key. Safe to detect (the
  // stored digest says who the credential is) and refused, so the two flows never share a nonce.
  if (state.quoted && state.quoted.claim_sha256 !== keySha256(key)) {
    throw new Refusal(
      'SERVICE_REQUEST_KEY_REUSED',
      'this X-Service-Request value was already used as an Idempotency-Key for a quote; ' +
        'use a fresh private key (nothing was charged)',
    );
  }
  const id = state.quoted!.purchase_id;
  return redeem(
    deps,
    {
      purchaseId: id,
      binding: { key, source: 'x-service-request' },
      paymentSignature: call.paymentSignature,
      ...(payer ? { payer } : {}),
    },
    state,
  );
}

/** What a buyer holds of a purchase quoted with an HMAC claim: where to read and pay it, and the claim. */
export const purchaseHandles = (deps: Pick<MoneyPathDeps, 'claimSecret'>, id: string) => ({
  report_url: reportPath(id),
  claim_token: claimTokenFor(deps.claimSecret, id),
});

/** The digest of the HMAC claim of a purchase (what its report URL checks). */
export const hmacClaimSha256 = (deps: Pick<MoneyPathDeps, 'claimSecret'>) => (id: string) =>
  claimSha256(claimTokenFor(deps.claimSecret, id));

/** The payment terms with this amount, as a quote states them. */
export const paymentOnWire = (deps: Pick<MoneyPathDeps, 'terms'>, amount: string) => ({
  ...paymentTermsOnWire(deps.terms),
  amount,
});
