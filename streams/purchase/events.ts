import * as t from 'io-ts';
import { SignedEnvelope } from '@rights-preflight/wire/evidence/envelope.js';
import { SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { PaymentRequired, PaymentRequirements, SettleResponse } from '@rights-preflight/wire/payment/x402-wire.js';
import { PaymentSettlement } from '@rights-preflight/wire/contract/report.js';
import {
  Address,
  BlockNumber,
  IsoTime,
  Micro,
  NonEmpty,
  Nonce,
  pattern,
  Sha256Hex,
  TxHash,
  UnixSeconds,
} from '@rights-preflight/wire/contract/primitives.js';
import { StoredQuotedProduct } from './quoted-product.js';

// Events of the purchase stream `purchase-<purchase_id>` (spec §3). These codecs are the single
// source of truth for what a stored event may hold; `evolve` decodes every event with them, so a
// malformed event stops a fold loudly instead of being half-understood.
//
// Never a secret in clear: the claim token is stored as its sha256, the payment authorization only
// sealed (AES-256-GCM), and the `sealed_payment` codec refuses anything that is not a sealed form.
// Codecs are `t.type` (not exact): fields added later by newer writers survive a decode.

export const PurchaseEventType = {
  Quoted: 'Quoted',
  Offered: 'Offered',
  AuthorizationCheckpointed: 'AuthorizationCheckpointed',
  SettlementSubmitted: 'SettlementSubmitted',
  SettlementBroadcast: 'SettlementBroadcast',
  Settled: 'Settled',
  Delivered: 'Delivered',
  Held: 'Held',
  LockStuck: 'LockStuck',
  OperatorMoved: 'OperatorMoved',
} as const;
export type PurchaseEventType = (typeof PurchaseEventType)[keyof typeof PurchaseEventType];

/** The fields every product's normalized input shares, as strings (the read models' generic view of it). */
export const NormalizedInput = t.type({
  sku: t.string,
  resource: t.string,
  purpose: t.string,
  tier: t.string,
  user_class: t.string,
});

/** `decision_preview`: spec §2.5 vocabularies, kept as strings here (the RSL module owns them). */
export const DecisionPreview = t.type({ purpose: t.string, classification: t.string, decision: t.string });

/** What every `Quoted` event holds, whatever the product; the product's own part is ./quoted-product.ts. */
export const QuotedCommon = t.intersection([
  t.type({
    purchase_id: Sha256Hex,
    input_sha256: Sha256Hex,
    /** The buyer's budget; the price never exceeds it (decide refuses). */
    max_total_micro: Micro,
    /** The exact charge (the quote response's `charge_micro`). */
    price_micro: Micro,
    decision_preview: DecisionPreview,
    /** Ed25519 envelope over the quote payload (packages/wire/src/evidence/payloads.ts QuotePayload). */
    signed_quote: SignedEnvelope,
    /** End of the quote's and its offer's lifetime. */
    expires_at: IsoTime,
    /**
     * sha256 of the claim token. Key-bound flows (preflight, gate) store sha256 of the X-Service-Request
     * key instead (the key is the credential there), or null when no claim is accepted at all.
     */
    claim_sha256: t.union([Sha256Hex, t.null]),
  }),
  t.partial({
    /** Key-bound flows with a sign-in proof (ingestion gate): the one address allowed to pay. */
    payer: Address,
    /** The `{id}` of the report URL when it differs from purchase_id (the quote flow uses purchase_id). */
    report_id: t.string,
  }),
]);

/** `Quoted`: the common part and one product's `sku`, `input` and `reading` (a union keyed by `sku`). */
export const QuotedData = t.intersection([QuotedCommon, StoredQuotedProduct]);

export const OfferedData = t.type({
  /** x402 v2 PaymentRequirements (the x402 wire codec; decide reads amount/payTo/asset/network). */
  requirements: PaymentRequirements,
  /** The whole x402 PaymentRequired, repeated verbatim on every 402. */
  payment_required: PaymentRequired,
  /** The bound EIP-3009 nonce the buyer must sign (spec §5.4). */
  nonce: Nonce,
  /** Ed25519 envelope over OfferReceiptPayload. */
  offer_receipt: SignedEnvelope,
  expires_at: IsoTime,
});

/** First money-path format, "v1.<iv>.<tag>.<ciphertext>" base64url (see src/crypto/seal.ts); still readable. */
const CompactSealed = new t.Type<string, string, unknown>(
  'CompactSealed',
  (u): u is string => typeof u === 'string' && /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/.test(u),
  (u, c) =>
    typeof u === 'string' && /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/.test(u)
      ? t.success(u)
      : t.failure(u, c, 'not a sealed value'),
  t.identity,
);
export const SealedPayment = t.union([SealedBox, CompactSealed]);
export type SealedPayment = t.TypeOf<typeof SealedPayment>;

export const AuthorizationCheckpointedData = t.intersection([
  t.type({
    /** The exact x402 PaymentPayload, sealed (AES-256-GCM). Never the clear authorization. */
    sealed_payment: SealedPayment,
    /** sha256hex(JCS(PaymentPayload)): an identical retry is recognised without opening the seal. */
    payment_sha256: Sha256Hex,
    payer: Address,
    nonce: Nonce,
    amount: Micro,
    /** EIP-3009 validBefore: after it the authorization can no longer settle. */
    valid_before: UnixSeconds,
    at: IsoTime,
  }),
  t.partial({
    /** A chain block read before the authorization was verified: recovery searches its logs from here, not block 0. */
    from_block: BlockNumber,
  }),
]);

/** A submission whose outcome is not known (timeout, lost receipt, crash window): decided later from the chain. */
export const SettlementSubmittedData = t.type({
  transaction: t.union([TxHash, t.null]),
  reason: t.string,
  /** When it was submitted. */
  at: IsoTime,
});

/** An integer in wei (or gas units) as a decimal string. */
const Wei = pattern('Wei', /^(0|[1-9][0-9]{0,77})$/, 'must be an integer as a decimal string');

/**
 * The write-ahead submission record (docs/decisions.md, "Write-ahead submission record"): appended after
 * the relayer signed a transaction and before it is handed to the node, so a crash at any later moment
 * leaves the stream naming exactly the transaction that may be on chain. Recovery asks the chain about
 * these hashes (and the authorization state) instead of searching logs. A replacement at the same
 * account nonce is another one of these, naming the transaction it replaces.
 */
export const SettlementBroadcastData = t.intersection([
  t.type({
    /** keccak256 of the signed raw transaction: its hash before the node has seen it. */
    transaction: TxHash,
    relayer: Address,
    /** The relayer account's transaction nonce (not the EIP-3009 authorization nonce). */
    account_nonce: Wei,
    gas: Wei,
    max_fee_per_gas: Wei,
    max_priority_fee_per_gas: Wei,
    at: IsoTime,
  }),
  t.partial({ /** A fee bump: the earlier transaction at the same account nonce. */ replaces: TxHash }),
]);

export const SettledData = t.intersection([
  t.type({
    network: t.string,
    transaction: TxHash,
    payer: Address,
    amount: Micro,
    block: t.union([BlockNumber, t.null]),
  }),
  t.partial({
    asset: Address,
    pay_to: Address,
    /** Settled on a Flashblocks preconfirmation (CONFIRMATION=preconfirmed); absent: in a sealed block. */
    confirmation: t.literal('preconfirmed'),
  }),
]);

const DeliveredData = t.intersection([
  t.type({
    /** The paid 200 body (spec §2.4): stored whole, so every re-read returns the same bytes' meaning. */
    response: t.type({
      report: t.UnknownRecord,
      evidence: SignedEnvelope,
      delivery_proof: SignedEnvelope,
      payment_settlement: PaymentSettlement,
    }),
    /** x402 SettleResponse sent as PAYMENT-RESPONSE. */
    payment_response: SettleResponse,
  }),
  t.partial({
    /**
     * sha256hex(JCS(response.delivery_proof)), recorded at delivery so the read models need not ship the
     * whole response to learn it (the report and evidence digests are already in the proof's payload).
     * Absent in events written before it existed; readers then compute it from the response.
     */
    delivery_proof_sha256: Sha256Hex,
  }),
]);

export const HeldData = t.type({
  /** Reason code, e.g. SETTLEMENT_MISMATCH, SETTLEMENT_FAILED, BUYER_REPORTED_MISMATCH. */
  reason: NonEmpty,
  /** What mismatched: {field: {expected, settled}} and context. */
  details: t.UnknownRecord,
  at: IsoTime,
});

export const LockStuckData = t.intersection([
  t.type({
    reason: NonEmpty,
    details: t.UnknownRecord,
    /** The status the purchase was in when it was found stuck. */
    last_step: t.string,
    /** What was tried: a list of steps, or (first money-path writer) the number of ambiguous submissions. */
    tried: t.union([t.array(t.string), t.number]),
    at: IsoTime,
  }),
  t.partial({ /** Since when it has been stuck (e.g. the checkpoint time). */ since: IsoTime }),
]);

/**
 * The operator's way out of `held` / `lock_stuck` (only an operator moves a locked purchase on):
 *   retry_settlement         → back to checkpointed; recovery resubmits the same sealed authorization
 *   accept_settlement        → settled (the operator confirmed the transfer on chain; `settlement` given
 *                              unless the stream already has one); delivery follows
 *   closed_no_charge         → closed; the operator established nothing was or can be charged
 *   closed_settled_delivered → back to delivered; a hold raised after delivery is resolved
 */
export const OperatorTarget = t.keyof({
  retry_settlement: null,
  accept_settlement: null,
  closed_no_charge: null,
  closed_settled_delivered: null,
});
export type OperatorTarget = t.TypeOf<typeof OperatorTarget>;

export const OperatorMovedData = t.intersection([
  t.type({ target: OperatorTarget, note: NonEmpty, operator: NonEmpty, at: IsoTime }),
  t.partial({ settlement: SettledData }),
]);

const event = <T extends PurchaseEventType, C extends t.Mixed>(type: T, data: C) =>
  t.type({ type: t.literal(type), data });

const QuotedEvent = event(PurchaseEventType.Quoted, QuotedData);
const OfferedEvent = event(PurchaseEventType.Offered, OfferedData);
const AuthorizationCheckpointedEvent = event(
  PurchaseEventType.AuthorizationCheckpointed,
  AuthorizationCheckpointedData,
);
const SettlementSubmittedEvent = event(PurchaseEventType.SettlementSubmitted, SettlementSubmittedData);
const SettlementBroadcastEvent = event(PurchaseEventType.SettlementBroadcast, SettlementBroadcastData);
const SettledEvent = event(PurchaseEventType.Settled, SettledData);
const DeliveredEvent = event(PurchaseEventType.Delivered, DeliveredData);
const HeldEvent = event(PurchaseEventType.Held, HeldData);
const LockStuckEvent = event(PurchaseEventType.LockStuck, LockStuckData);
const OperatorMovedEvent = event(PurchaseEventType.OperatorMoved, OperatorMovedData);

export const PurchaseEvent = t.union([
  QuotedEvent,
  OfferedEvent,
  AuthorizationCheckpointedEvent,
  SettlementSubmittedEvent,
  SettlementBroadcastEvent,
  SettledEvent,
  DeliveredEvent,
  HeldEvent,
  LockStuckEvent,
  OperatorMovedEvent,
]);
export type PurchaseEvent = t.TypeOf<typeof PurchaseEvent>;
export type PurchaseEventData<T extends PurchaseEventType> = Extract<PurchaseEvent, { type: T }>['data'];

export const isPurchaseEventType = (type: string): type is PurchaseEventType => Object.hasOwn(PurchaseEventType, type);
