import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import {
  OFFER_RECEIPT_EXTENSION,
  OFFER_RECEIPT_SCHEMA,
  REQUEST_BINDING_EXTENSION,
  REQUEST_BINDING_SCHEMA,
} from '@rights-preflight/wire/contract/offer.js';
import type { PaymentRequired, PaymentRequirements } from '@rights-preflight/wire/payment/x402-wire.js';
import type { PurchaseCommandBody, PurchaseEventData, PurchaseState } from '../../streams/purchase/index.js';
import type { MoneyPathDeps, Hex } from './deps.js';
import { reportPath } from './report-path.js';

// The 402 offer: built once per purchase and stored in `Offered`, so every later 402 repeats the
// same requirements, nonce and signed receipt. Its lifetime is the quote's (`expires_at`); whether it
// may still be made or paid is decide's to say (OFFER_EXPIRED).

type BindingKeySource = 'x-service-claim' | 'x-service-request';
export interface Binding {
  key: string;
  source: BindingKeySource;
}

export function buildOffer(
  deps: MoneyPathDeps,
  q: PurchaseEventData<'Quoted'>,
  binding: Binding,
): PurchaseEventData<'Offered'> {
  const nonce = boundNonce({ resource: q.input.resource, key: binding.key, input_sha256: q.input_sha256 }) as Hex;
  const requirements: PaymentRequirements = {
    scheme: 'exact',
    network: deps.terms.network,
    asset: deps.terms.asset,
    payTo: deps.terms.payTo,
    amount: q.price_micro,
    maxTimeoutSeconds: deps.terms.maxTimeoutSeconds,
    extra: { name: deps.terms.eip712.name, version: deps.terms.eip712.version },
  };
  const offerReceipt = deps.sign({
    type: 'offer-receipt',
    purchase_id: q.purchase_id,
    resource_url: deps.baseUrl + reportPath(q.purchase_id),
    resource: q.input.resource,
    input_sha256: q.input_sha256,
    scheme: 'exact',
    network: requirements.network,
    asset: requirements.asset,
    pay_to: requirements.payTo,
    amount: requirements.amount,
    nonce,
    max_timeout_seconds: requirements.maxTimeoutSeconds,
    expires_at: q.expires_at,
    issued_at: deps.now().toISOString(),
    key_id: deps.evidenceKeyId,
  });
  const paymentRequired: PaymentRequired = {
    x402Version: 2,
    error: 'PAYMENT_REQUIRED',
    resource: {
      url: deps.baseUrl + reportPath(q.purchase_id),
      description: 'Rights preflight report (not a license; legal_clearance false)',
      mimeType: 'application/json',
    },
    accepts: [requirements],
    extensions: {
      [REQUEST_BINDING_EXTENSION]: {
        info: {
          version: 'service-request-v1',
          nonce,
          resource: q.input.resource,
          input_sha256: q.input_sha256,
          key_source: binding.source,
        },
        schema: REQUEST_BINDING_SCHEMA,
      },
      [OFFER_RECEIPT_EXTENSION]: { info: { receipt: offerReceipt }, schema: OFFER_RECEIPT_SCHEMA },
    },
  };
  return {
    requirements,
    payment_required: paymentRequired,
    nonce,
    offer_receipt: offerReceipt,
    expires_at: q.expires_at,
  };
}

/**
 * The Offer command for the purchase as it stands: a new offer for a quoted purchase, the stored one
 * otherwise (decide answers nothing while it is valid, OFFER_EXPIRED after). `payer` is the signed-in
 * payer asking, for purchases pinned to one.
 */
export const offerCommand =
  (deps: MoneyPathDeps, binding: Binding, payer?: Hex) =>
  (state: PurchaseState): PurchaseCommandBody | undefined => {
    const data = state.offered ?? (state.quoted && buildOffer(deps, state.quoted, binding));
    return data && { type: 'Offer', data, ...(payer ? { payer } : {}) };
  };
