import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import type { Channel, Reason } from '@rights-preflight/wire/rsl/vocabulary.js';
import type { DocumentInput } from './evaluate/evaluate.js';
import type { FetchCache } from './fetch-cache.js';
import type { DocumentRecord, Observation } from './reading.js';
import type { CrawlerReading } from './robots.js';

// What one discovery (discovery.ts) works with and hands back: its limits, its result, and the run its
// readers (robots-discovery.ts, html-reading.ts) record into, so that they need not import discovery.

export interface DiscoveryLimits {
  /**
   * robots.txt's parse limit (RFC 9309 §2.5: at least 500 KiB): every line that starts within it is
   * parsed (robots.ts reads a little further to end the last one); an answer resting on a file that
   * goes on beyond what was read is never more permissive than UNKNOWN.
   */
  robotsMaxBytes: number;
  pageMaxBytes: number;
  documentMaxBytes: number;
  /** Distinct license documents fetched per resource; more are recorded as not fetched. */
  maxDocuments: number;
}

export interface Discovery {
  observations: Observation[];
  inputs: DocumentInput[];
  records: DocumentRecord[];
  diagnostics: string[];
  declarationFound: boolean;
  discoveryComplete: boolean;
  /** The other AI-use signals met on these fetches and the origin's tdmrep.json (docs/wire.md §15); never RSL. */
  signals: SignalObservation[];
  /**
   * The sets of robots.txt `License` lines some crawler would select (robots.ts `readings`); a robots
   * input names the ones that include it (`DocumentInput.robotsReadings`). Empty when robots.txt had
   * no rules to read.
   */
  robotsReadings: CrawlerReading[];
  /** What discovery itself found that explains every answer (robots.txt unavailable: no rules). */
  reasons: Reason[];
}

/** What one discovery collects, and how a channel that cannot be read is recorded. */
export interface DiscoveryRun {
  out: Discovery;
  /** Associations as (channel, target as written, base for relative targets, robots readings naming it). */
  associations: Array<{ channel: Channel; value: string; base: string; readings?: number[] }>;
  channelFailure(channel: Channel, url: string, code: string, message: string): void;
}

export type Got = Awaited<ReturnType<FetchCache['get']>>;
