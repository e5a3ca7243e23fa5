import * as t from 'io-ts';
import { OperatorTarget, SettledData } from '../../streams/purchase/events.js';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';

// The operator API's wire shapes (src/operator/http/api.ts), shared by the listener, the CLI's client
// (ops/client/) and the console's pages. Requests are decoded with these codecs before anything is
// decided; a body that does not decode is refused 400 with the failing paths.
//
//   POST /operator/v1/purchases/3f9a0c1b/move
//   {"target":"closed_no_charge","note":"nonce unused on chain","operator":"ana","expected_revision":"3"}

export const OPERATOR_API = '/operator/v1';

/** A stream revision as a decimal string (revisions are bigints; JSON numbers would round them). */
export const Revision = t.refinement(t.string, (s) => /^(0|[1-9][0-9]{0,18})$/.test(s), 'Revision');

const NonBlank = t.refinement(t.string, (s) => s.trim().length > 0 && s.length <= 2000, 'NonBlank');

export const MoveRequest = t.intersection([
  t.type({ target: OperatorTarget, note: NonBlank, operator: NonBlank, expected_revision: Revision }),
  t.partial({ settlement: SettledData }),
]);
export type MoveRequest = t.TypeOf<typeof MoveRequest>;

/** What a review, an add or a withdrawal is asked with (POST /operator/v1/coverage/…, the CLI's relay). */
export const CoverageChangeRequest = t.type({ origin: t.string, operator: t.string, reason: t.string });
export type CoverageChangeRequest = t.TypeOf<typeof CoverageChangeRequest>;

export const RefundReviewRequest = t.type({
  decision: t.keyof({ approve: null, reject: null }),
  note: NonBlank,
  operator: NonBlank,
  expected_revision: Revision,
});
export type RefundReviewRequest = t.TypeOf<typeof RefundReviewRequest>;

export const RefundPaidRequest = t.type({
  transaction: TxHash,
  amount_micro: t.refinement(t.string, (s) => /^(0|[1-9][0-9]*)$/.test(s), 'Micro'),
  note: NonBlank,
  operator: NonBlank,
  expected_revision: Revision,
});
export type RefundPaidRequest = t.TypeOf<typeof RefundPaidRequest>;

/** Every refusal of the operator API, whatever its status. */
export const OperatorRefusal = t.type({
  refused: t.intersection([t.type({ code: t.string, message: t.string }), t.partial({ details: t.UnknownRecord })]),
});
export type OperatorRefusal = t.TypeOf<typeof OperatorRefusal>;

export const MoveResponse = t.type({
  moved: t.type({ purchase_id: t.string, from: t.string, to: t.string, position: t.string, revision: t.string }),
});
export type MoveResponse = t.TypeOf<typeof MoveResponse>;

export const RefundChangeResponse = t.type({ refund: t.type({ stream: t.string, from: t.string, to: t.string }) });
export type RefundChangeResponse = t.TypeOf<typeof RefundChangeResponse>;

/** Where the read models stand against the store (GET /replay): `behind` 0 means caught up. */
export const ReplayStatus = t.type({ checkpoint: t.string, head: t.string, behind: t.string, leader: t.boolean });
export type ReplayStatus = t.TypeOf<typeof ReplayStatus>;

/** POST /replay's NDJSON lines: `progress` first and after each page committed, then one `result` or `failed`. */
export const ReplayStreamLine = t.union([
  t.type({ progress: t.type({ position: t.string, head: t.string }) }),
  t.type({ result: t.unknown }),
  t.type({ failed: t.string }),
]);
export type ReplayStreamLine = t.TypeOf<typeof ReplayStreamLine>;

// Reads. Field sets follow the read models (projections/report-view, investigation-queue, refunds);
// the API's answers are checked against these types at compile time (`satisfies`) and decoded with
// them in test/operator/operator-api.test.ts.

const Nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const HistoryEntryWire = t.type({
  type: t.string,
  revision: t.string,
  position: t.string,
  at: t.string,
  summary: t.UnknownRecord,
});

export const ReportRowWire = t.type({
  purchase_id: t.string,
  status: t.string,
  submissions: t.number,
  locked_from: Nullable(t.string),
  sku: t.string,
  resource: t.string,
  origin: Nullable(t.string),
  purpose: t.string,
  user_class: t.string,
  tier: t.string,
  geo: Nullable(t.string),
  classification: t.string,
  decision: t.string,
  observed_at: Nullable(t.string),
  rsl_document_sha256: t.array(t.string),
  price_micro: t.string,
  expires_at: t.string,
  quoted_at: t.string,
  payer: Nullable(t.string),
  settled_amount_micro: Nullable(t.string),
  network: Nullable(t.string),
  transaction: Nullable(t.string),
  evidence_key_id: Nullable(t.string),
  report_sha256: Nullable(t.string),
  evidence_sha256: Nullable(t.string),
  delivery_proof_sha256: Nullable(t.string),
  delivered_at: Nullable(t.string),
  lock_reason: Nullable(t.string),
  updated_position: t.string,
});

export const RefundRowWire = t.type({
  purchase_id: t.string,
  status: t.string,
  reason: t.string,
  amount_micro: t.string,
  requested_at: t.string,
  reviewed_at: Nullable(t.string),
  paid_transaction: Nullable(t.string),
});

export const QueueResponse = t.type({
  items: t.array(
    t.type({
      purchase_id: t.string,
      kind: t.keyof({ held: null, lock_stuck: null }),
      reason: t.string,
      details: t.UnknownRecord,
      locked_from: Nullable(t.string),
      since_position: t.string,
      since: t.string,
      history: t.array(HistoryEntryWire),
    }),
  ),
});
export type QueueResponse = t.TypeOf<typeof QueueResponse>;

export const PurchasesResponse = t.type({ purchases: t.array(ReportRowWire), next: Nullable(t.string) });
export type PurchasesResponse = t.TypeOf<typeof PurchasesResponse>;

/** One resource a purchase sold (projections/report-view/resource-lines.ts): a gate has one per URL. */
export const SoldLineWire = t.type({
  purchase_id: t.string,
  sku: t.string,
  purpose: t.string,
  line: t.number,
  resource: t.string,
  origin: Nullable(t.string),
  classification: t.string,
  decision: t.string,
  observed_at: Nullable(t.string),
  rsl_document_sha256: t.array(t.string),
  /** The signals beside RSL the delivered report states for the line (docs/wire.md §15); null before delivery
   *  or signals. */
  signals_summary: Nullable(t.string),
  signals: Nullable(t.array(t.string)),
  report_sha256: Nullable(t.string),
  evidence_sha256: Nullable(t.string),
  transaction: Nullable(t.string),
});

export const TimelineResponse = t.type({
  purchase: ReportRowWire,
  resources: t.array(SoldLineWire),
  history: t.array(HistoryEntryWire),
  refund: Nullable(RefundRowWire),
  revision: Nullable(Revision),
});
export type TimelineResponse = t.TypeOf<typeof TimelineResponse>;

export const RefundsResponse = t.type({
  refunds: t.array(t.intersection([RefundRowWire, t.type({ revision: Nullable(Revision) })])),
});
export type RefundsResponse = t.TypeOf<typeof RefundsResponse>;

export const SummaryResponse = t.type({
  by_status: t.array(t.type({ status: t.string, purchases: t.number })),
  quotes_per_day: t.array(t.type({ day: t.string, quotes: t.number })),
  queue: t.number,
  open_refunds: t.number,
});
export type SummaryResponse = t.TypeOf<typeof SummaryResponse>;
