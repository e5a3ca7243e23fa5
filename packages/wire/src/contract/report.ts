import * as t from 'io-ts';
import {
  Classification,
  Decision,
  GATEWAY_VERSION,
  IsoTime,
  Network,
  PaidPurpose,
  REPORT_PROFILE,
  ReportReason,
  SignedEnvelopeWire,
  SINGLE_REPORT_SKU,
  Tier,
  TxHash,
  UserClass,
} from './common.js';
import { Sha256Hex } from './primitives.js';
import { ReportCheckpoint } from './checkpoint.js';
import { ReportResourceSignals } from './report-signals.js';

// The paid 200 of GET /v1/rights/reports/{id} (spec §2.4 shape, single-resource report).

export const ReportResource = t.intersection([
  t.type({
    resource: t.string,
    classification: Classification,
    decision: Decision,
    legal_clearance: t.literal(false),
    declaration_found: t.boolean,
    reasons: t.array(ReportReason),
  }),
  // Signed since revalidation (docs/wire.md §14); null in reports delivered before.
  t.partial({ checkpoint: ReportCheckpoint }),
  // Since the signals beside RSL (docs/wire.md §15): absent in reports delivered before.
  ReportResourceSignals,
]);

export const Report = t.type({
  sku: t.keyof({ [SINGLE_REPORT_SKU]: null, 'rights.ingestion-gate.v1': null, 'rights.revalidate.v1': null }),
  profile: t.literal(REPORT_PROFILE),
  legal_clearance: t.literal(false),
  purchase_id: Sha256Hex,
  purpose: PaidPurpose,
  tier: Tier,
  user_class: UserClass,
  observed_at: IsoTime,
  resources: t.array(ReportResource),
});
export type Report = t.TypeOf<typeof Report>;

/** Spec §2.7. */
export const PaymentSettlement = t.type({
  success: t.literal(true),
  network: Network,
  transaction: TxHash,
});
export type PaymentSettlement = t.TypeOf<typeof PaymentSettlement>;

/** Spec §2.4: the paid 200 around a SKU's report, the same envelope for every SKU. */
export const paidResponseOf = <R extends t.Mixed>(report: R, name: string) =>
  t.type(
    {
      version: t.literal(GATEWAY_VERSION),
      input_sha256: Sha256Hex,
      legal_clearance: t.literal(false),
      report,
      evidence: SignedEnvelopeWire, // payload fields: docs/wire.md §5
      delivery_proof: SignedEnvelopeWire, // payload fields: docs/wire.md §5
      payment_settlement: PaymentSettlement,
    },
    name,
  );

export const PaidReportResponse = paidResponseOf(Report, 'PaidReportResponse');
export type PaidReportResponse = t.TypeOf<typeof PaidReportResponse>;
