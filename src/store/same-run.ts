import type { AppendResult } from './port.js';

/** A stored event's id and place, as either SQL engine reads them back (PostgreSQL's bigints come as text). */
export interface PlacedEventId {
  id: string;
  revision: bigint | number | string;
  position: bigint | number | string;
}

/**
 * Whether `rows` are exactly the events `ids` (lower-case), one revision after another: an append retried after
 * an unknown outcome finds its own earlier write this way and answers as that write did, instead of appending
 * twice (docs/decisions.md, "Event store").
 */
export function sameRun(rows: readonly PlacedEventId[], ids: readonly string[]): AppendResult | undefined {
  if (rows.length !== ids.length) return undefined;
  for (const [i, row] of rows.entries()) {
    if (row.id.toLowerCase() !== ids[i]) return undefined;
    if (i > 0 && BigInt(row.revision) !== BigInt(rows[i - 1]!.revision) + 1n) return undefined;
  }
  const last = rows[rows.length - 1]!;
  return { nextExpectedRevision: BigInt(last.revision), position: BigInt(last.position) };
}
