import * as t from 'io-ts';
import {
  AuthorizationCheckpointedData, HeldData, LockStuckData, OfferedData, OperatorMovedData, PurchaseEventType,
  QuotedData, SettledData, SettlementSubmittedData,
} from './events.js';
import { Sha256Hex } from '../../src/contract/primitives.js';

// The facts of each purchase event: the part of it the read models use (src/store/sql/event-facts-sql.ts
// computes them in the database, projections/feed/event-facts.ts in TypeScript). Built from the
// events' own codecs, so a fact means exactly what its event field means. Small events are their
// own facts; the bulky ones (Quoted's reading and signed quote, Offered's x402 documents, the
// delivered response) are reduced to the fields a read model shows.

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);
const Q = QuotedData.types[0].props;
const input = Q.input.props;
const preview = Q.decision_preview.props;

export const QuotedFacts = t.type({
  sku: Q.sku,
  resource: input.resource,
  purpose: input.purpose,
  user_class: input.user_class,
  tier: input.tier,
  price_micro: Q.price_micro,
  expires_at: Q.expires_at,
  classification: preview.classification,
  decision: preview.decision,
  payer: nullable(QuotedData.types[1].props.payer),
  /** From the reading (a gate's first reading); null when the reading has none. */
  origin: nullable(t.string),
  geo: nullable(t.string),
  /** When the declarations were observed (a gate: the earliest of its readings). */
  observed_at: nullable(t.string),
  /** sha256 of every RSL document observed, in reading order. */
  rsl_documents: t.array(t.string),
});

export const OfferedFacts = t.type({ nonce: OfferedData.props.nonce, expires_at: OfferedData.props.expires_at });

const C = AuthorizationCheckpointedData.types[0].props;
export const CheckpointedFacts = t.type({ payer: C.payer, amount: C.amount, nonce: C.nonce, valid_before: C.valid_before, at: C.at });

/** Digests null only in Delivered events written before the event carried `delivery_proof_sha256`. */
export const DeliveredFacts = t.type({
  report_sha256: nullable(Sha256Hex),
  evidence_sha256: nullable(Sha256Hex),
  delivery_proof_sha256: nullable(Sha256Hex),
  evidence_key_id: nullable(t.string),
  delivered_at: nullable(t.string),
});

const fact = <T extends PurchaseEventType, C extends t.Mixed>(type: T, facts: C) => t.type({ type: t.literal(type), facts });

export const PurchaseFacts = t.union([
  fact(PurchaseEventType.Quoted, QuotedFacts),
  fact(PurchaseEventType.Offered, OfferedFacts),
  fact(PurchaseEventType.AuthorizationCheckpointed, CheckpointedFacts),
  fact(PurchaseEventType.SettlementSubmitted, SettlementSubmittedData),
  fact(PurchaseEventType.Settled, SettledData),
  fact(PurchaseEventType.Delivered, DeliveredFacts),
  fact(PurchaseEventType.Held, HeldData),
  fact(PurchaseEventType.LockStuck, LockStuckData),
  fact(PurchaseEventType.OperatorMoved, OperatorMovedData),
], 'PurchaseFacts');
export type PurchaseFacts = t.TypeOf<typeof PurchaseFacts>;
