import type { CoverageEventData } from './events.js';

// Per origin: reviewed (not yet covered) → covered → withdrawn → (reviewed again) → covered …
export type OriginStatus = 'reviewed' | 'covered' | 'withdrawn';

export interface OriginEntry {
  status: OriginStatus;
  /** The latest review (absent for an origin seeded from COVERED_ORIGINS and never reviewed since). */
  review?: CoverageEventData<'OriginReviewed'>;
  /** When it became covered this time (seed or add). */
  since?: string;
}

export interface CoverageState {
  /** Whether the ledger was ever written to (a seed applies only to a ledger with no events). */
  started: boolean;
  /** Number of events folded. */
  version: number;
  /** By origin, in the order origins first appeared. */
  origins: ReadonlyMap<string, OriginEntry>;
}

export const initialCoverageState: CoverageState = Object.freeze({
  started: false,
  version: 0,
  origins: new Map(),
}) as CoverageState;

/** The covered origins, in the order they first appeared in the ledger. */
export const coveredOrigins = (s: CoverageState): string[] =>
  [...s.origins].filter(([, e]) => e.status === 'covered').map(([o]) => o);
