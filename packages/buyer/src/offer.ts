import { isLeft } from 'fp-ts/lib/Either.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { keyIdOf } from '@rights-preflight/wire/evidence/public-key.js';
import { OfferReceiptPayload } from '@rights-preflight/wire/evidence/payloads.js';
import { boundNonce } from '@rights-preflight/wire/payment/binding.js';
import { decodePaymentRequired } from '@rights-preflight/wire/payment/x402-headers.js';
import { SCHEME_EXACT, USDC, type PaymentNetwork } from '@rights-preflight/wire/payment/x402-constants.js';
import type { PaymentRequired, PaymentRequirements } from '@rights-preflight/wire/payment/x402-wire.js';
import { BuyerRefused } from './errors.js';

// The checks a buyer makes on a 402 offer BEFORE signing anything (docs/wire.md §3). Any mismatch
// throws BuyerRefused with its own code; nothing is signed, nothing is checkpointed.

export interface Pins {
  network: string;
  asset: string;
  recipient: string;
  evidenceKey: string;
}

export interface OfferExpectation {
  /** The quoted charge (quote flow) or the amount the buyer accepts (preflight). */
  amount: string;
  maxPerReportMicro: bigint;
  purchase_id?: string;
  resource: string;
  input_sha256: string;
  /** The binding key: claim token or X-Service-Request value. Never leaves this function. */
  key: string;
}

export interface CheckedOffer {
  paymentRequired: PaymentRequired;
  requirements: PaymentRequirements;
  nonce: `0x${string}`;
  receipt: { payload: Record<string, unknown>; signature: string; algorithm: string; format: string };
  binding: { resource: string; input_sha256: string; nonce: string; key_source: string };
  eip712: { name: string; version: string };
  expiresAt: string;
}

const sameAddr = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const refuse = (code: ConstructorParameters<typeof BuyerRefused>[0], msg: string): never => {
  throw new BuyerRefused(code, msg);
};

/** `now` is the buyer's clock; the test vectors (test/vectors/) pass their fixed one. */
export function checkOffer(header: string | null, pins: Pins, x: OfferExpectation, now = new Date()): CheckedOffer {
  if (!header) return refuse('OFFER_MISSING', 'the 402 carries no PAYMENT-REQUIRED header');
  const decoded = decodePaymentRequired(header);
  if (!decoded.ok) return refuse('OFFER_INVALID', decoded.problem);
  const pr = decoded.value;
  if (pr.accepts.length !== 1) refuse('OFFER_INVALID', `expected exactly one payment option, got ${pr.accepts.length}`);
  const req = pr.accepts[0]!;
  if (req.scheme !== SCHEME_EXACT) refuse('SCHEME_MISMATCH', `scheme ${req.scheme} is not exact`);
  if (req.network !== pins.network)
    refuse('NETWORK_MISMATCH', `offer network ${req.network} is not the pinned ${pins.network}`);
  if (!sameAddr(req.asset, pins.asset)) refuse('ASSET_MISMATCH', `offer asset ${req.asset} is not the pinned asset`);
  if (!sameAddr(req.payTo, pins.recipient))
    refuse('RECIPIENT_MISMATCH', `offer recipient ${req.payTo} is not the pinned recipient`);
  const amount = BigInt(req.amount);
  if (amount > x.maxPerReportMicro)
    refuse('PRICE_ABOVE_REPORT_BUDGET', `offer amount ${req.amount} exceeds the per-report cap ${x.maxPerReportMicro}`);
  if (req.amount !== x.amount) refuse('PRICE_MISMATCH', `offer amount ${req.amount} is not the quoted ${x.amount}`);
  const extra = req.extra as { name?: unknown; version?: unknown };
  const known = USDC[req.network as PaymentNetwork];
  if (typeof extra.name !== 'string' || typeof extra.version !== 'string')
    refuse('EIP712_DOMAIN_MISMATCH', 'offer lacks the EIP-712 name/version');
  if (known && (extra.name !== known.eip712.name || extra.version !== known.eip712.version))
    refuse('EIP712_DOMAIN_MISMATCH', "offer EIP-712 domain is not USDC's on this network");

  const ext = (pr.extensions ?? {}) as Record<string, { info?: Record<string, unknown> } | undefined>;
  const receipt = ext['service-offer-receipt']?.info?.receipt as CheckedOffer['receipt'] | undefined;
  if (!receipt || typeof receipt !== 'object')
    return refuse('OFFER_RECEIPT_INVALID', 'offer has no service-offer-receipt');
  const rp = OfferReceiptPayload.decode(receipt.payload);
  if (isLeft(rp)) return refuse('OFFER_RECEIPT_INVALID', 'offer receipt payload has the wrong shape');
  const r = rp.right;
  if (r.key_id !== keyIdOf(pins.evidenceKey.toLowerCase()))
    refuse('EVIDENCE_KEY_MISMATCH', `offer receipt is signed by key ${r.key_id}, not the pinned key`);
  if (!verifyEnvelope(receipt, pins.evidenceKey))
    refuse('OFFER_RECEIPT_INVALID', 'offer receipt signature does not verify with the pinned key');
  if (
    r.network !== req.network ||
    !sameAddr(r.asset, req.asset) ||
    !sameAddr(r.pay_to, req.payTo) ||
    r.amount !== req.amount ||
    r.max_timeout_seconds !== req.maxTimeoutSeconds
  ) {
    refuse('OFFER_RECEIPT_MISMATCH', 'signed offer receipt differs from the payment option');
  }
  if (x.purchase_id !== undefined && r.purchase_id !== x.purchase_id)
    refuse('OFFER_RECEIPT_MISMATCH', 'offer receipt is for another purchase');
  if (r.resource !== x.resource || r.input_sha256 !== x.input_sha256)
    refuse('OFFER_RECEIPT_MISMATCH', 'offer receipt is for another resource or input');
  if (Date.parse(r.expires_at) <= now.getTime()) refuse('OFFER_RECEIPT_MISMATCH', 'offer has expired');

  const info = ext['service-request-binding']?.info as CheckedOffer['binding'] | undefined;
  if (!info || typeof info.nonce !== 'string')
    return refuse('BINDING_MISMATCH', 'offer has no service-request-binding');
  const mine = boundNonce({ resource: x.resource, key: x.key, input_sha256: x.input_sha256 });
  if (info.nonce.toLowerCase() !== mine)
    refuse('BINDING_MISMATCH', 'offered nonce is not the one recomputed from this request');
  if (r.nonce.toLowerCase() !== mine) refuse('BINDING_MISMATCH', 'signed offer receipt names another nonce');
  if (info.resource !== x.resource || info.input_sha256 !== x.input_sha256)
    refuse('BINDING_MISMATCH', 'binding extension names another resource or input');

  return {
    paymentRequired: pr,
    requirements: req,
    nonce: mine,
    receipt,
    binding: {
      resource: info.resource,
      input_sha256: info.input_sha256,
      nonce: mine,
      key_source: String(info.key_source ?? ''),
    },
    eip712: { name: extra.name as string, version: extra.version as string },
    expiresAt: r.expires_at,
  };
}
