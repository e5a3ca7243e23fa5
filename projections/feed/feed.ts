import type { RawFactEvent } from './fact-event.js';

/** Where the read models read `$all` from: the facts of each event, in global order, in large pages. */
export interface FactFeed {
  /** Up to `limit` events with position > from. */
  read(from: bigint, limit: number): Promise<RawFactEvent[]>;
  /** The position of the newest event (0n: none). */
  head(): Promise<bigint>;
}
