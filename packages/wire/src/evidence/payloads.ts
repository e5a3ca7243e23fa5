import * as t from 'io-ts';
import { KeyId } from './public-key.js';
import { Address, IsoTime, Nonce, Sha256Hex, TxHash } from '../contract/primitives.js';
import { MicroString, Network } from '../contract/common.js';

// What the service signs (docs/wire.md §2–§5): the `payload` of each Ed25519 envelope.
// These codecs describe the payloads the money path signs today, so a buyer or auditor can decode a
// verified payload before trusting its fields. Every payload names its `type` (so one kind can never
// be passed off as another: a quote is not a delivery proof) and the `key_id` that signed it
// (verifyEnvelope checks it). Codecs are not exact: a later field does not break an older verifier.
// RSL-specific parts (`reading`) stay loose records here; src/rsl/reading.ts owns their shape.

const Micro = MicroString;

/** Per resource: what was observed and how it was read. `reading` = the RSL ResourceReading (observations
 *  with channel, URL, HTTP status, sha256 and fetch time of each document; matched scope; reasons). */
export const EvidenceResource = t.intersection([
  t.type({ resource: t.string, classification: t.string, reading: t.UnknownRecord }),
  // signals_summary since the signals beside RSL (the observations are in `reading.signals`; docs/wire.md §15).
  t.partial({ decision: t.string, signals_summary: t.string }),
]);

export const EvidencePayload = t.intersection([
  t.type({
    type: t.literal('evidence'),
    purchase_id: Sha256Hex,
    input_sha256: Sha256Hex,
    legal_clearance: t.literal(false),
    purpose: t.string,
    user_class: t.string,
    geo: t.union([t.string, t.null]),
    resources: t.array(EvidenceResource),
    key_id: KeyId,
  }),
  // The ingestion gate also signs its SKU and request context.
  t.partial({ sku: t.string, tier: t.string, freshness_seconds: t.number }),
]);
export type EvidencePayload = t.TypeOf<typeof EvidencePayload>;

/** The settlement a delivery is bound to: the transfer and the authorization it executed. */
export const ProofSettlement = t.type({
  network: Network,
  transaction: TxHash,
  payer: Address,
  amount: Micro,
  asset: Address,
  pay_to: Address,
  nonce: Nonce,
});

export const DeliveryProofPayload = t.type({
  type: t.literal('delivery-proof'),
  purchase_id: Sha256Hex,
  input_sha256: Sha256Hex,
  /** digestOf(report) — sha256hex(JCS(report)). */
  report_sha256: Sha256Hex,
  /** digestOf(evidence envelope) — the whole envelope, signature included. */
  evidence_sha256: Sha256Hex,
  settlement: ProofSettlement,
  delivered_at: IsoTime,
  key_id: KeyId,
});
export type DeliveryProofPayload = t.TypeOf<typeof DeliveryProofPayload>;

/** The signed quote: fixes amount, recipient, network and expiry (spec §2.9, §8). */
export const QuotePayload = t.intersection([
  t.type({
    type: t.literal('quote'),
    purchase_id: Sha256Hex,
    sku: t.string,
    resource: t.string,
    purpose: t.string,
    tier: t.string,
    user_class: t.string,
    input_sha256: Sha256Hex,
    amount: Micro,
    asset: Address,
    pay_to: Address,
    network: Network,
    issued_at: IsoTime,
    expires_at: IsoTime,
    key_id: KeyId,
  }),
  t.partial({
    decision_preview: t.type({ classification: t.string, decision: t.string }), // single report
    resources: t.array(t.string), // ingestion gate
    classifications: t.array(t.type({ resource: t.string, classification: t.string })),
    geo: t.union([t.string, t.null]),
    freshness_seconds: t.number,
    payer: Address, // gate: the signed-in payer
  }),
]);
export type QuotePayload = t.TypeOf<typeof QuotePayload>;

/** The offer receipt carried in PAYMENT-REQUIRED (extension service-offer-receipt). */
export const OfferReceiptPayload = t.type({
  type: t.literal('offer-receipt'),
  purchase_id: Sha256Hex,
  /** The report URL this offer pays for. */
  resource_url: t.string,
  resource: t.string,
  input_sha256: Sha256Hex,
  scheme: t.literal('exact'),
  network: Network,
  asset: Address,
  pay_to: Address,
  amount: Micro,
  /** The bound nonce the buyer must sign. */
  nonce: Nonce,
  max_timeout_seconds: t.number,
  expires_at: IsoTime,
  issued_at: IsoTime,
  key_id: KeyId,
});
export type OfferReceiptPayload = t.TypeOf<typeof OfferReceiptPayload>;
