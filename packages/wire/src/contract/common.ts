import * as t from 'io-ts';

// Primitives shared by every wire codec of the money path. Each one is the single definition of its rule.

import { Address, Bytes32, IsoTime, pattern, Sha256Hex, TxHash } from './primitives.js';
import { PaymentNetwork } from '../payment/network.js';
import { Reason } from '../rsl/vocabulary.js';

export { Address, Bytes32, IsoTime, TxHash };

/** Integer micro-USDC as a decimal string (spec §2.3/§8: at most 100000000000). */
export const BudgetMicro = pattern(
  'BudgetMicro',
  /^(0|[1-9][0-9]{0,10}|100000000000)$/,
  'must be integer micro-USDC as a string, at most 100000000000',
);
/** Any non-negative integer micro-USDC amount as a decimal string (prices, charges). */
export const MicroString = pattern(
  'MicroString',
  /^(0|[1-9][0-9]*)$/,
  'must be a non-negative integer as a decimal string',
);
export const Signature128 = pattern('Signature128', /^[0-9a-f]{128}$/, 'must be 128 lowercase hex characters');
/** The quote flow's report id: the purchase id (streams/purchase/purchase-id.ts), 64 lowercase hex. */
export const PurchaseId = Sha256Hex;
/** Claim tokens: 256 bits as 64 lowercase hex (the X-Service-Claim header value). */
export const ClaimToken = Sha256Hex;
/** Idempotency-Key: a buyer-chosen, high-entropy retry key (same alphabet as x402 payment-identifier). */
export const IdempotencyKey = pattern(
  'IdempotencyKey',
  /^[A-Za-z0-9_-]{16,128}$/,
  'must be 16 to 128 characters of A-Z a-z 0-9 _ -',
);

export const PaidPurpose = t.keyof({ 'ai-input': null, 'ai-index': null, 'ai-train': null, search: null });
export type PaidPurpose = t.TypeOf<typeof PaidPurpose>;
export const Tier = t.keyof({ fresh: null, deep: null });
/** The user classes RSL's `<user>` names (one definition, the RSL module's). */
export { UserClass } from '../rsl/purposes.js';
/** The one network type (../payment/network.ts), under the name the wire codecs use. */
export const Network = PaymentNetwork;

/** How the payment terms read wherever the service states them (quote, preflight discovery, capabilities). */
export const PaymentTermsWire = t.type(
  {
    protocol: t.literal('x402'),
    x402_version: t.literal(2),
    scheme: t.literal('exact'),
    network: Network,
    asset: Address,
    pay_to: Address,
  },
  'PaymentTerms',
);
export type PaymentTermsWire = t.TypeOf<typeof PaymentTermsWire>;

/** Classification and single-resource decision vocabulary (spec §2.5): one definition, the RSL module's. */
export { Classification, Decision } from '../rsl/vocabulary.js';

/** One entry of a report resource's `reasons` (docs/wire.md §5, "Reasons"). Reports delivered since
 *  2026-11-24 carry the evaluator's structured `Reason`; reports delivered before carried the same
 *  record as a JSON string. A reader must accept both: a delivered report is kept byte for byte, so the
 *  older form stays valid evidence for ever. The service only ever writes the object. */
export const ReportReason = t.union([Reason, t.string], 'ReportReason');
export type ReportReason = t.TypeOf<typeof ReportReason>;

/** Spec §2.6 signed envelope as it appears on the wire; payload fields per envelope are listed in docs/wire.md. */
export const SignedEnvelopeWire = t.type({
  algorithm: t.literal('Ed25519'),
  format: t.literal('service-evidence-v1'),
  payload: t.UnknownRecord,
  signature: Signature128,
});
export type SignedEnvelopeWire = t.TypeOf<typeof SignedEnvelopeWire>;

export const GATEWAY_VERSION = 'service-public-gateway-v1' as const;
export const REPORT_PROFILE = 'service-observed-policy-v1' as const;
export const SINGLE_REPORT_SKU = 'rights.preflight.v1' as const;
