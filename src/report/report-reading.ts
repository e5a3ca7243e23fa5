import * as t from 'io-ts';
import { Classification, Decision, ReportReason } from '@rights-preflight/wire/contract/common.js';
import { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';

// What a report is drafted from in a stored reading (a ResourceReading, src/rsl/reading.ts): the
// fields the report shows. A drafter checks a stored reading against this with `is`, never `decode`:
// the reading is embedded verbatim in the signed evidence, so it is passed on as stored, and a reading
// written before a field it does not show was added still delivers. Its reasons may be either form
// a report accepts (ReportReason: readings stored before 2026-11-24 hold them as JSON strings).
// Shared by every SKU's drafter.

export const ReportPurposeReading = t.type({
  purpose: GatePurpose,
  classification: Classification,
  decision: Decision,
  tokens: t.array(t.type({ reasons: t.array(ReportReason) })),
});
export type ReportPurposeReading = t.TypeOf<typeof ReportPurposeReading>;

export const ReportReading = t.type({
  resource: t.string,
  geo: t.union([t.string, t.null]),
  observed_at: t.string,
  declaration_found: t.boolean,
  purposes: t.array(ReportPurposeReading),
});
export type ReportReading = t.TypeOf<typeof ReportReading>;

/** The reading's entry for the purpose asked; a reading without one stops the delivery loudly. */
export function purposeReading(reading: ReportReading, purpose: string): ReportPurposeReading {
  const pr = reading.purposes.find((p) => p.purpose === purpose);
  if (!pr) throw new Error(`reading of ${reading.resource} has no entry for ${purpose}`);
  return pr;
}

/** The stored reading of `purchaseId` as a report reads it; a reading it cannot show stops the delivery loudly. */
export function reportReading(reading: unknown, purchaseId: string): ReportReading {
  if (!ReportReading.is(reading)) throw new Error(`the reading of purchase ${purchaseId} has no report fields`);
  return reading;
}
