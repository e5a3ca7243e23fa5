import * as t from 'io-ts';
import type { Checkpoint } from '@rights-preflight/wire/contract/checkpoint.js';
import { CheckpointPayload } from '@rights-preflight/wire/contract/checkpoint.js';
import { Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';
import type { REVALIDATE_SKU, RevalidationReport } from '@rights-preflight/wire/contract/revalidation.js';
import { checkpointDraft } from '../../report/checkpoint-draft.js';
import type { QuotedOf } from '../../money-path/product.js';
import { reportHeader } from '../../report/report-header.js';
import { purposeReading, reportReading } from '../../report/report-reading.js';
import { severalResourcesEvidence } from '../../report/several-resources.js';
import { reportReasons } from '../../report/report-reasons.js';
import { changesSince } from './compare.js';
import { evidenceSignalsSummary, reportSignals } from '../../report/report-signals.js';

// The revalidation report and evidence payload, from the quote alone like the other products' (the
// readings observed when the offer was made and the checkpoints they are compared with), so a resumed
// delivery drafts the same. Each resource: what it is now, what it was, what changed, and a new checkpoint.

/** One checkpoint asked about, and the report it was delivered in. */
const PreviousObservation = t.type({ checkpoint: CheckpointPayload, report_sha256: Sha256Hex });

/**
 * `Quoted.reading` of a revalidation purchase, in request order: the new readings (as the RSL reader wrote
 * them) under `readings`, as a gate stores its own, so every read model (facts v2: one line per reading)
 * shows a revalidation's resources without a store migration; and what each is compared with.
 */
export const RevalidationReadings = t.type({
  version: t.literal('rsl-revalidation-readings-v1'),
  readings: t.array(t.UnknownRecord),
  previous: t.array(PreviousObservation),
});
export type RevalidationReadings = t.TypeOf<typeof RevalidationReadings>;

export function draftRevalidationReport(q: QuotedOf<typeof REVALIDATE_SKU>, evidenceKeyId: string) {
  const { input } = q;
  if (!RevalidationReadings.is(q.reading))
    throw new Error(`the reading of purchase ${q.purchase_id} is not a revalidation's`);
  const { readings: stored, previous } = q.reading;
  if (previous.length !== stored.length) throw new Error(`purchase ${q.purchase_id}: readings and checkpoints differ`);
  const drafted = stored.map((stored1, i) => {
    const e = {
      reading: stored1,
      previous: previous[i]!.checkpoint,
      previous_report_sha256: previous[i]!.report_sha256,
    };
    const reading = reportReading(e.reading, q.purchase_id);
    const pr = purposeReading(reading, input.purpose);
    const reasons = reportReasons(pr);
    const first = reasons[0];
    const rule = typeof first === 'object' ? first.rule : null;
    const checkpoint = checkpointDraft(q, reading, e.reading, pr.classification);
    const changes = changesSince(e.previous, checkpoint, rule);
    return {
      checkpoint,
      entry: {
        resource: reading.resource,
        classification: pr.classification,
        previous_classification: e.previous.classification,
        changed: changes.length > 0,
        changes,
        legal_clearance: false as const,
        declaration_found: reading.declaration_found,
        reasons,
        previous_report_sha256: e.previous_report_sha256,
        ...reportSignals(e.reading, input.purpose, pr.classification),
      },
      observed_at: reading.observed_at,
    };
  });
  const header = reportHeader(q);
  const report = (signed: readonly Checkpoint[]): RevalidationReport => ({
    ...header,
    geo: input.geo,
    observed_at: drafted.map((d) => d.observed_at).sort()[0]!,
    resources: drafted.map((d, i) => ({ ...d.entry, checkpoint: signed[i] ?? null })),
  });
  const evidence = severalResourcesEvidence(
    q,
    {},
    stored.map((reading, i) => ({
      resource: drafted[i]!.entry.resource,
      classification: drafted[i]!.entry.classification,
      ...evidenceSignalsSummary(reading, input.purpose, drafted[i]!.entry.classification),
      reading,
      previous_checkpoint: previous[i]!.checkpoint,
      previous_report_sha256: previous[i]!.report_sha256,
    })),
    evidenceKeyId,
  );
  return { report, evidence, checkpoints: drafted.map((d) => d.checkpoint) };
}
