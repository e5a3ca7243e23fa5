import * as t from 'io-ts';
import {
  AuthorizationCheckpointedData,
  HeldData,
  LockStuckData,
  OfferedData,
  OperatorMovedData,
  PurchaseEventType,
  NormalizedInput,
  QuotedCommon,
  SettledData,
  SettlementBroadcastData,
  SettlementSubmittedData,
} from './events.js';
import { NonEmpty, Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// The facts of each purchase event: the part of it the read models use (src/store/sql/event-facts-sql.ts
// computes them in the database, projections/feed/event-facts.ts in TypeScript). Built from the
// events' own codecs, so a fact means exactly what its event field means. Small events are their
// own facts; the bulky ones (Quoted's reading and signed quote, Offered's x402 documents, the
// delivered response) are reduced to the fields a read model shows.

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);
const Q = QuotedCommon.types[0].props;
const input = NormalizedInput.props;
const preview = Q.decision_preview.props;

/** One resource a purchase covers, as sold (a gate's reading); a single report's line is its own fields. */
export const ResourceLineFacts = t.type({
  resource: t.string,
  origin: nullable(t.string),
  classification: t.string,
  decision: nullable(t.string),
  observed_at: nullable(t.string),
  rsl_documents: t.array(t.string),
});
export type ResourceLineFacts = t.TypeOf<typeof ResourceLineFacts>;

const QuotedFacts = t.type({
  sku: NonEmpty,
  resource: input.resource,
  purpose: input.purpose,
  user_class: input.user_class,
  tier: input.tier,
  price_micro: Q.price_micro,
  expires_at: Q.expires_at,
  classification: preview.classification,
  decision: preview.decision,
  payer: nullable(QuotedCommon.types[1].props.payer),
  /** From the reading (a gate's first reading); null when the reading has none. */
  origin: nullable(t.string),
  geo: nullable(t.string),
  /** When the declarations were observed (a gate: the earliest of its readings). */
  observed_at: nullable(t.string),
  /** sha256 of every RSL document observed, in reading order. */
  rsl_documents: t.array(t.string),
  /** An ingestion gate's resources, one line per reading in request order; null for a single report. */
  resources: nullable(t.array(ResourceLineFacts)),
});

const OfferedFacts = t.type({ nonce: OfferedData.props.nonce, expires_at: OfferedData.props.expires_at });

const C = AuthorizationCheckpointedData.types[0].props;
const CheckpointedFacts = t.type({
  payer: C.payer,
  amount: C.amount,
  nonce: C.nonce,
  valid_before: C.valid_before,
  at: C.at,
});

/** Digests null only in Delivered events written before the event carried `delivery_proof_sha256`. */
const DeliveredFacts = t.type({
  report_sha256: nullable(Sha256Hex),
  evidence_sha256: nullable(Sha256Hex),
  delivery_proof_sha256: nullable(Sha256Hex),
  evidence_key_id: nullable(t.string),
  delivered_at: nullable(t.string),
  /** Per resource of the delivered report, the `changed` it states (a revalidation's); [] for other SKUs. */
  changed: t.array(t.boolean),
  /** Per resource of the delivered report, its signals_summary (docs/wire.md §15); null where it states none. */
  signals_summary: t.array(nullable(t.string)),
  /** Per resource of the delivered report, its observations as "standard:sha256"; null where it has none. */
  signals: t.array(nullable(t.array(t.string))),
});

/** Each event type's facts codec: a checker goes straight to the one codec of an event's type. */
const FACTS_OF_TYPE = {
  [PurchaseEventType.Quoted]: QuotedFacts,
  [PurchaseEventType.Offered]: OfferedFacts,
  [PurchaseEventType.AuthorizationCheckpointed]: CheckpointedFacts,
  [PurchaseEventType.SettlementSubmitted]: SettlementSubmittedData,
  [PurchaseEventType.SettlementBroadcast]: SettlementBroadcastData,
  [PurchaseEventType.Settled]: SettledData,
  [PurchaseEventType.Delivered]: DeliveredFacts,
  [PurchaseEventType.Held]: HeldData,
  [PurchaseEventType.LockStuck]: LockStuckData,
  [PurchaseEventType.OperatorMoved]: OperatorMovedData,
} as const satisfies Record<PurchaseEventType, t.Mixed>;
type FactsOfType = typeof FACTS_OF_TYPE;

const fact = <T extends PurchaseEventType>(type: T) =>
  t.type({ type: t.literal(type), facts: FACTS_OF_TYPE[type] as FactsOfType[T] });

export const PurchaseFacts = t.union(
  [
    fact(PurchaseEventType.Quoted),
    fact(PurchaseEventType.Offered),
    fact(PurchaseEventType.AuthorizationCheckpointed),
    fact(PurchaseEventType.SettlementSubmitted),
    fact(PurchaseEventType.SettlementBroadcast),
    fact(PurchaseEventType.Settled),
    fact(PurchaseEventType.Delivered),
    fact(PurchaseEventType.Held),
    fact(PurchaseEventType.LockStuck),
    fact(PurchaseEventType.OperatorMoved),
  ],
  'PurchaseFacts',
);
export type PurchaseFacts = t.TypeOf<typeof PurchaseFacts>;

/**
 * The same check as `PurchaseFacts.is`, without trying the union's members one by one: rebuilds
 * check hundreds of thousands of events.
 */
export function isPurchaseFacts(x: { type: string; facts: unknown }): x is PurchaseFacts {
  const codec = Object.hasOwn(FACTS_OF_TYPE, x.type) ? FACTS_OF_TYPE[x.type as PurchaseEventType] : undefined;
  return codec?.is(x.facts) === true;
}
