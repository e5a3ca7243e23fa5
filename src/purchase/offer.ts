import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import { WrongExpectedRevision } from '../store/port.js';
import { boundNonce } from '../payment/binding.js';
import {
  OFFER_RECEIPT_EXTENSION, OFFER_RECEIPT_SCHEMA, REQUEST_BINDING_EXTENSION, REQUEST_BINDING_SCHEMA, type PaymentRequiredBody,
} from '../http/wire/offer.js';
import type { MoneyPathDeps, Hex } from './deps.js';
import { execute, loadPurchase, type Loaded, type OfferedView } from './stream.js';
import { moneyError } from './errors.js';
import { reportPath } from './quote.js';

// The 402 offer: built once per purchase and stored in `Offered`, so every later 402 repeats the
// same requirements, nonce and signed receipt. Its lifetime is the quote's (`expires_at`).

export type BindingKeySource = 'x-service-claim' | 'x-service-request';
export interface Binding { key: string; source: BindingKeySource }

export interface HttpAnswer { status: number; headers: Record<string, string>; body: unknown }

export function buildOffer(deps: MoneyPathDeps, loaded: Loaded, binding: Binding): OfferedView {
  const q = loaded.quoted!;
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
    resource: { url: deps.baseUrl + reportPath(q.purchase_id), description: 'Rights preflight report (not a license; legal_clearance false)', mimeType: 'application/json' },
    accepts: [requirements],
    extensions: {
      [REQUEST_BINDING_EXTENSION]: {
        info: { version: 'service-request-v1', nonce, resource: q.input.resource, input_sha256: q.input_sha256, key_source: binding.source },
        schema: REQUEST_BINDING_SCHEMA,
      },
      [OFFER_RECEIPT_EXTENSION]: { info: { receipt: offerReceipt }, schema: OFFER_RECEIPT_SCHEMA },
    },
  };
  return { requirements, payment_required: paymentRequired, nonce, offer_receipt: offerReceipt, expires_at: q.expires_at };
}

/** Appends `Offered` unless the purchase already has its offer; concurrent first GETs share one. */
export async function ensureOffered(deps: MoneyPathDeps, id: string, loaded: Loaded, binding: Binding): Promise<Loaded> {
  if (loaded.offered) return loaded;
  if (Date.parse(loaded.quoted!.expires_at) <= deps.now().getTime()) {
    throw moneyError('OFFER_EXPIRED', 'the quote expired before an offer was made; request a new quote', { expires_at: loaded.quoted!.expires_at });
  }
  const offer = buildOffer(deps, loaded, binding);
  try {
    return await execute(deps, id, loaded, { type: 'Offer', data: offer });
  } catch (err) {
    if (!(err instanceof WrongExpectedRevision)) throw err;
    const again = await loadPurchase(deps.store, id);
    if (!again.offered) throw err;
    return again;
  }
}

/** The 402 answer for a stored offer; `code` is PAYMENT_REQUIRED or the refusal of a rejected payment. */
export function offerAnswer(loaded: Loaded, code = 'PAYMENT_REQUIRED', message = 'payment required: sign the offer in PAYMENT-REQUIRED with the bound nonce', extraDetails: Record<string, unknown> = {}): HttpAnswer {
  const o = loaded.offered!;
  const pr = { ...o.payment_required, error: code };
  const body: PaymentRequiredBody = {
    error: {
      code,
      message,
      details: {
        purchase_id: loaded.quoted!.purchase_id,
        charge_micro: o.requirements.amount,
        network: o.requirements.network as PaymentRequiredBody['error']['details']['network'],
        asset: o.requirements.asset,
        pay_to: o.requirements.payTo,
        nonce: o.nonce,
        expires_at: o.expires_at,
        ...extraDetails,
      },
    },
  };
  return { status: 402, headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(pr), 'Cache-Control': 'no-store' }, body };
}
