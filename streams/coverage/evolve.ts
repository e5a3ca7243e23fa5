import { isLeft } from 'fp-ts/lib/Either.js';
import { CoverageEvent } from './events.js';
import { initialCoverageState, type CoverageState, type OriginEntry } from './state.js';

// evolve(state, event) → state. Pure; every event is decoded with its codec first, so a malformed
// event stops the fold loudly.

export class UnknownCoverageEvent extends Error {
  readonly code = 'UNKNOWN_COVERAGE_EVENT';
}

export function evolveCoverage(state: CoverageState, recorded: { type: string; data: unknown }): CoverageState {
  const decoded = CoverageEvent.decode({ type: recorded.type, data: recorded.data });
  if (isLeft(decoded)) throw new UnknownCoverageEvent(`coverage event ${recorded.type} does not decode`);
  const e = decoded.right;
  const origins = new Map(state.origins);
  const set = (origin: string, change: (was: OriginEntry | undefined) => OriginEntry) =>
    origins.set(origin, change(origins.get(origin)));
  switch (e.type) {
    case 'CoverageSeeded':
      for (const o of e.data.origins) set(o, (was) => ({ ...was, status: 'covered', since: e.data.at }));
      break;
    case 'OriginReviewed':
      set(e.data.origin, (was) => ({
        ...was,
        status: was?.status === 'covered' ? 'covered' : 'reviewed',
        review: e.data,
      }));
      break;
    case 'OriginAdded':
      set(e.data.origin, (was) => ({ ...was, status: 'covered', since: e.data.at }));
      break;
    case 'OriginWithdrawn':
      set(e.data.origin, (was) => {
        const { since: _since, ...rest } = was ?? { status: 'withdrawn' };
        return { ...rest, status: 'withdrawn' };
      });
      break;
  }
  return { started: true, version: state.version + 1, origins };
}

export const foldCoverage = (events: readonly { type: string; data: unknown }[]): CoverageState =>
  events.reduce<CoverageState>((s, e) => evolveCoverage(s, e), initialCoverageState);
