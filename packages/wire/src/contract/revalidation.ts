import * as t from 'io-ts';
import { strictType } from './decode.js';
import { boundedArray, withDefault } from './constrained.js';
import { Channel } from '../rsl/vocabulary.js';
import { BudgetMicro, Classification, IsoTime, ReportReason, Tier } from './common.js';
import { Sha256Hex } from './primitives.js';
import { unavailableMembers } from './unavailable.js';
import { ReportCheckpoint } from './checkpoint.js';
import { ReportResourceSignals } from './report-signals.js';
import { paidResponseOf } from './report.js';
import { resourcesReportHeader } from './resources-report.js';

// POST /v1/rights/revalidate (docs/wire.md §14): one to four checkpoints of earlier reports are
// observed again (conditionally) and compared; the report says what each resource is now and what changed.

export const REVALIDATE_SKU = 'rights.revalidate.v1' as const;
export const REVALIDATE_PATH = '/v1/rights/revalidate' as const;
/** At most this many checkpoints per call (as the gate's resources); more is CHECKPOINTS_TOO_MANY. */
export const MAX_REVALIDATE_CHECKPOINTS = 4;

/**
 * The body. `checkpoints` are taken as sent (objects) and checked by the service one by one, so an altered
 * or foreign one gets its own refusal code rather than a shape error; more than four is refused with its
 * own code too (the codec's bound only keeps a body small).
 */
export const RevalidateRequest = strictType(
  {
    checkpoints: boundedArray('Checkpoints', t.UnknownRecord, 1, 64),
    max_total_micro: BudgetMicro,
  },
  { tier: withDefault(Tier, 'fresh' as const) },
  'RevalidateRequest',
);
export type RevalidateRequest = t.TypeOf<typeof RevalidateRequest>;

const Sha256OrNull = t.union([Sha256Hex, t.null]);

/** What changed since the checkpoint, one record per fact (docs/wire.md §14, "Change kinds"). */
export const RevalidationChange = t.union(
  [
    t.type({ kind: t.literal('document-added'), url: t.string, channels: t.array(Channel), new_sha256: Sha256OrNull }),
    t.type({
      kind: t.literal('document-removed'),
      url: t.string,
      channels: t.array(Channel),
      old_sha256: Sha256OrNull,
    }),
    t.type({ kind: t.literal('document-changed'), url: t.string, old_sha256: Sha256OrNull, new_sha256: Sha256OrNull }),
    t.type({
      kind: t.literal('association-moved'),
      url: t.string,
      old_channels: t.array(Channel),
      new_channels: t.array(Channel),
    }),
    t.type({
      kind: t.literal('classification-changed'),
      old: Classification,
      new: Classification,
      /** The rule that now decides (the first reason's), or null when no rule produced the outcome. */
      rule: t.union([t.string, t.null]),
    }),
  ],
  'RevalidationChange',
);
export type RevalidationChange = t.TypeOf<typeof RevalidationChange>;

export const RevalidationResource = t.intersection([
  t.type({
    resource: t.string,
    classification: Classification,
    previous_classification: Classification,
    changed: t.boolean,
    changes: t.array(RevalidationChange),
    legal_clearance: t.literal(false),
    declaration_found: t.boolean,
    reasons: t.array(ReportReason),
    /** report_sha256 of the report the checkpoint was delivered in: a chain of revalidations ties back. */
    previous_report_sha256: Sha256Hex,
    /** The new checkpoint, to revalidate again later. */
    checkpoint: ReportCheckpoint,
  }),
  // Since the signals beside RSL (docs/wire.md §15): absent in revalidations delivered before.
  ReportResourceSignals,
]);
export type RevalidationResource = t.TypeOf<typeof RevalidationResource>;

export const RevalidationReport = t.type({
  ...resourcesReportHeader(REVALIDATE_SKU),
  observed_at: IsoTime,
  resources: t.array(RevalidationResource),
});
export type RevalidationReport = t.TypeOf<typeof RevalidationReport>;

export const RevalidationResponse = paidResponseOf(RevalidationReport, 'RevalidationResponse');
export type RevalidationResponse = t.TypeOf<typeof RevalidationResponse>;

/** No resource could be looked at (every one FETCH_FAILED): nothing is offered, stored or charged. */
export const RevalidationUnavailable = t.intersection(
  unavailableMembers({ reason: t.literal('FETCH_FAILED'), input_sha256: Sha256Hex }),
  'RevalidationUnavailable',
);
export type RevalidationUnavailable = t.TypeOf<typeof RevalidationUnavailable>;
