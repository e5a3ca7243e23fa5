import { CoverageEvent } from './events.js';

// What was covered on each UTC day (the compliance report's "Coverage by day"): an origin counts for a
// day when it was covered at any moment of it — covered when the day began, or added during it — and
// the day lists the ledger's changes made on it. Pure: the ledger's events in order, and the days.

export interface CoveredDay {
  day: string;
  origins: string[];
  changes: { at: string; type: CoverageEvent['type']; origin: string; operator: string; reason: string }[];
}

export function coveredDays(events: readonly { type: string; data: unknown }[], days: readonly string[]): CoveredDay[] {
  const decoded = events
    .map((e) => CoverageEvent.decode({ type: e.type, data: e.data }))
    .flatMap((d) => (d._tag === 'Right' ? [d.right] : []));
  const covered = new Set<string>();
  let i = 0;
  return days.map((day) => {
    const origins = new Set<string>();
    // Everything before the day makes its start.
    while (i < decoded.length && decoded[i]!.data.at.slice(0, 10) < day) apply(decoded[i++]!, covered);
    for (const o of covered) origins.add(o);
    const changes: CoveredDay['changes'] = [];
    const during = new Set(covered);
    for (let j = i; j < decoded.length && decoded[j]!.data.at.slice(0, 10) === day; j++) {
      const e = decoded[j]!;
      apply(e, during);
      for (const o of during) origins.add(o);
      if (e.type === 'CoverageSeeded')
        for (const o of e.data.origins)
          changes.push({ at: e.data.at, type: e.type, origin: o, operator: 'COVERED_ORIGINS', reason: e.data.source });
      else if (e.type !== 'OriginReviewed')
        changes.push({
          at: e.data.at,
          type: e.type,
          origin: e.data.origin,
          operator: e.data.operator,
          reason: e.data.reason,
        });
    }
    return { day, origins: [...origins].sort(), changes };
  });
}

function apply(e: CoverageEvent, covered: Set<string>): void {
  if (e.type === 'CoverageSeeded') for (const o of e.data.origins) covered.add(o);
  else if (e.type === 'OriginAdded') covered.add(e.data.origin);
  else if (e.type === 'OriginWithdrawn') covered.delete(e.data.origin);
}
