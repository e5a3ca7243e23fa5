import { CHECK_MANIFEST_FORMAT, type ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { TxHash } from '@rights-preflight/wire/contract/primitives.js';

// Manifest lines of a bulk check (./check.ts; the codec: @rights-preflight/wire/contract/check-manifest.js).

/** Reasons that are a URL's answer for good; any other `not_bought` is tried again by the next run. */
const FINAL_REASONS = new Set(['ORIGIN_NOT_COVERED', 'INVALID_URL', 'NO_VERIFIABLE_DECLARATION', 'FETCH_FAILED']);

export const line = (url: string, fields: Partial<ManifestLine>): ManifestLine => ({
  format: CHECK_MANIFEST_FORMAT,
  url,
  resource: null,
  status: 'not_bought',
  classification: null,
  decision: null,
  signals_summary: null,
  report_file: null,
  purchase_id: null,
  transaction: null,
  charge_micro: '0',
  reason: null,
  ...fields,
});

/** A URL whose last line says it needs nothing more from this run. */
export const settled = (l: ManifestLine | undefined) =>
  l !== undefined &&
  (l.status === 'bought' || l.status === 'held' || (l.status === 'not_bought' && FINAL_REASONS.has(l.reason!.code)));

/** What earlier runs spent: every purchase that was or may have been paid, once. */
export function spentBefore(lines: readonly ManifestLine[]): bigint {
  const paid = new Map<string, bigint>();
  for (const l of lines)
    if (l.purchase_id && (l.status === 'bought' || l.status === 'held'))
      paid.set(l.purchase_id, BigInt(l.charge_micro));
  return [...paid.values()].reduce((a, b) => a + b, 0n);
}

export const tx = (t: string | undefined) => (t && TxHash.is(t) ? t : null);
