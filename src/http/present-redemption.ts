import type Koa from 'koa';
import type * as t from 'io-ts';
import { checkedBody } from '@rights-preflight/wire/contract/checked-body.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';
import { encodePaymentRequired, encodePaymentResponse } from '@rights-preflight/wire/payment/x402-headers.js';
import { PaymentRequiredBody } from '@rights-preflight/wire/contract/offer.js';
import type { Redemption } from '../money-path/redemption.js';
import { STATUS_OF } from './status-of.js';

// How HTTP presents a redemption (x402 v2 over HTTP): an offer is a 402 whose PAYMENT-REQUIRED header
// repeats the stored offer, its `error` naming why a payment sent with the request was not accepted;
// a delivery is the paid 200 with the settlement in PAYMENT-RESPONSE. Bodies that are not a purchase
// (nothing available, no fee) are plain 200s. Headers are encoded from the canonical (RFC 8785) form of
// their JSON, and so is the paid body: they are the same bytes whether the delivery was just built (the
// walk delivers from the state it carries, unread: docs/decisions.md, "One walk for a paid redemption")
// or read back from a store that orders keys its own way (PostgreSQL jsonb).

/** The same value with its keys in canonical order. */
const canonical = <T>(value: T): T => JSON.parse(canonicalJson(value)) as T;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** A value Koa serializes, or a JSON text sent as it is. */
  body: unknown;
  /** The media type when not JSON. */
  type?: string;
}

/** The codecs of a product's two bodies (its listing's); the offer's 402 body is the same for every product. */
export interface RedemptionBodies {
  delivered: t.Any;
  unavailable: t.Any;
}

export function redemptionAnswer(
  r: Redemption | { kind: 'unavailable'; body: unknown },
  bodies: RedemptionBodies,
): HttpAnswer {
  switch (r.kind) {
    case 'unavailable':
      return { status: 200, headers: { 'Cache-Control': 'no-store' }, body: checkedBody(bodies.unavailable, r.body) };
    case 'delivered':
      return {
        status: 200,
        headers: {
          'PAYMENT-RESPONSE': encodePaymentResponse(canonical(r.delivered.payment_response)),
          'Cache-Control': 'private, no-store',
        },
        // The canonical text itself: parsing it back for Koa to stringify gave the same bytes at twice the cost.
        body: canonicalJson(checkedBody(bodies.delivered, r.delivered.response)),
      };
    case 'offer': {
      const o = r.offered;
      const refused = r.refused;
      const code = refused?.code ?? 'PAYMENT_REQUIRED';
      const message = refused?.message ?? 'payment required: sign the offer in PAYMENT-REQUIRED with the bound nonce';
      const body: PaymentRequiredBody = {
        error: {
          code,
          message,
          details: {
            purchase_id: r.purchaseId,
            charge_micro: o.requirements.amount,
            network: o.requirements.network as PaymentRequiredBody['error']['details']['network'],
            asset: o.requirements.asset,
            pay_to: o.requirements.payTo,
            nonce: o.nonce,
            expires_at: o.expires_at,
            ...refused?.details,
          },
        },
      };
      const header = encodePaymentRequired(canonical({ ...o.payment_required, error: code }));
      return {
        status: STATUS_OF.PAYMENT_REQUIRED!,
        headers: { 'PAYMENT-REQUIRED': header, 'Cache-Control': 'no-store' },
        body: checkedBody(PaymentRequiredBody, body),
      };
    }
  }
}

/** Writes an answer to the Koa context. */
export function send(ctx: Koa.Context, answer: HttpAnswer): void {
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.body = answer.body;
  if (answer.type) ctx.type = answer.type;
  else if (typeof answer.body === 'string') ctx.type = 'json'; // a JSON text already serialized (the paid body)
}
