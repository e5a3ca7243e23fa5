import * as t from 'io-ts';
import { strictType } from './decode.js';
import { boundedArray, intRange, patternString, withDefault } from './constrained.js';
import { DEFAULT_USER_CLASS, GatePurpose } from '../rsl/purposes.js';
import { Address, BudgetMicro, Classification, IsoTime, ReportReason, Tier, UserClass } from './common.js';
import { Sha256Hex } from './primitives.js';
import { unavailableMembers } from './unavailable.js';
import { paidResponseOf } from './report.js';
import { resourcesReportHeader } from './resources-report.js';
import { ReportCheckpoint } from './checkpoint.js';
import { ReportResourceSignals } from './report-signals.js';
import { ResourceUrl } from './preflight.js';
import { UnavailableReason } from '../rsl/unavailable-reason.js';
import { PaymentNetwork } from '../payment/network.js';

// POST /v1/rights/ingestion-gate (spec §2.3–§2.5, §5.5): the body, its two private headers
// (X-Service-Payment-Intent, SIGN-IN-WITH-X) and the answers.

export const GATE_SKU = 'rights.ingestion-gate.v1' as const;
export const GATE_PATH = '/v1/rights/ingestion-gate' as const;
export const GATE_SIWX_PROFILE = 'service-siwx-payment-v1' as const;
export const PAYMENT_INTENT_VERSION = 'service-payment-intent-v1' as const;

/** Caller-supplied ISO 3166-1 alpha-2 context (spec §2.3: not a verified location). */
export const GeoCode = patternString(
  'GeoCode',
  /^[A-Z]{2}$/,
  'must be two upper-case letters (ISO 3166-1 alpha-2) or null',
);

export const DEFAULT_FRESHNESS_SECONDS = 300;
export const DEFAULT_TIER = 'fresh' as const;

/** Spec §2.3, exactly: no extra properties; every pattern and range enforced by the codec. */
export const IngestionGateRequest = strictType(
  {
    resources: boundedArray('GateResources', ResourceUrl, 1, 4),
    purpose: GatePurpose,
    max_total_micro: BudgetMicro,
  },
  {
    user_class: withDefault(UserClass, DEFAULT_USER_CLASS),
    geo: t.union([GeoCode, t.null], 'NullableGeoCode'),
    freshness_seconds: withDefault(intRange('FreshnessSeconds', 0, 3600), DEFAULT_FRESHNESS_SECONDS),
    tier: withDefault(Tier, DEFAULT_TIER),
  },
  'IngestionGateRequest',
);
export type IngestionGateRequest = t.TypeOf<typeof IngestionGateRequest>;

/**
 * `X-Service-Payment-Intent` (base64 of this JSON): the unsigned pre-binding of spec §5.5. It names the
 * wallet that will sign in and pay, and pins the purchase it is for (the canonical gate URL and the
 * normalized input digest) and the network, so a proof or payment for anything else is refused
 * before the service evaluates or stores anything.
 */
export const PaymentIntent = strictType(
  {
    version: t.literal(PAYMENT_INTENT_VERSION),
    payer: Address,
    resource: t.string,
    input_sha256: Sha256Hex,
    network: PaymentNetwork,
  },
  {},
  'PaymentIntent',
);
export type PaymentIntent = t.TypeOf<typeof PaymentIntent>;

/**
 * `SIGN-IN-WITH-X` (base64 of this JSON): the x402 sign-in-with-x client payload (SIWxPayload) for an
 * EVM EOA. Unknown keys are ignored, as in the x402 extension; the service's profile rules are in
 * src/products/ingestion-gate/siwx.ts.
 */
export const SiwxProof = t.intersection(
  [
    t.type({
      domain: t.string,
      address: Address,
      uri: t.string,
      version: t.literal('1'),
      chainId: t.string,
      type: t.literal('eip191'),
      nonce: t.string,
      issuedAt: t.string,
      signature: t.string,
    }),
    t.partial({
      statement: t.string,
      expirationTime: t.string,
      notBefore: t.string,
      requestId: t.string,
      resources: t.array(t.string),
      signatureScheme: t.literal('eip191'),
    }),
  ],
  'SiwxProof',
);
export type SiwxProof = t.TypeOf<typeof SiwxProof>;

export const GateReportResource = t.intersection([
  t.type({
    resource: t.string,
    classification: Classification,
    legal_clearance: t.literal(false),
    declaration_found: t.boolean,
    reasons: t.array(ReportReason),
    /** Signed since revalidation; null in gate reports delivered before (docs/wire.md §14). */
    checkpoint: ReportCheckpoint,
  }),
  // Since the signals beside RSL (docs/wire.md §15): absent in gate reports delivered before.
  ReportResourceSignals,
]);
export type GateReportResource = t.TypeOf<typeof GateReportResource>;

/** Spec §2.5 with sku `rights.ingestion-gate.v1`: one entry per unique canonical resource, in request order. */
export const GateReport = t.type({
  ...resourcesReportHeader(GATE_SKU),
  freshness_seconds: t.number,
  observed_at: IsoTime,
  resources: t.array(GateReportResource),
});
export type GateReport = t.TypeOf<typeof GateReport>;

/** Spec §2.4. */
export const IngestionGateResponse = paidResponseOf(GateReport, 'IngestionGateResponse');
export type IngestionGateResponse = t.TypeOf<typeof IngestionGateResponse>;

/** No resource had any declaration at all: nothing is offered, stored or charged (as for a quote);
 *  FETCH_FAILED when one could not be read. */
export const IngestionGateUnavailable = t.intersection(
  unavailableMembers({
    reason: UnavailableReason,
    input_sha256: Sha256Hex,
    resources: t.array(t.type({ resource: t.string, classification: t.literal('NO_MACHINE_READABLE_DECLARATION') })),
  }),
  'IngestionGateUnavailable',
);
export type IngestionGateUnavailable = t.TypeOf<typeof IngestionGateUnavailable>;
