import type { Classification } from '@rights-preflight/wire/contract/common.js';

// The one-line preview of a quote on several resources answers "may I use all of this?": a prohibition
// first, then a license demand, then doubts (CONFLICT, UNKNOWN, nothing declared); PERMITTED only when
// every entry is. Shared by the products that sell several resources (gate, revalidation).
const ORDER: readonly Classification[] = [
  'PROHIBITED_BY_OBSERVED_DECLARATION',
  'LICENSE_REQUIRED',
  'CONFLICT',
  'UNKNOWN',
  'NO_MACHINE_READABLE_DECLARATION',
  'PERMITTED_BY_OBSERVED_DECLARATION',
];

/** The most restrictive classification of the entries. */
export const mostRestrictive = (entries: readonly { classification: Classification }[]): Classification =>
  ORDER.find((c) => entries.some((e) => e.classification === c)) ?? 'UNKNOWN';
