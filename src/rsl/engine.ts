import { readFileSync } from 'node:fs';
import { createCoverage, type Coverage } from './coverage.js';
import { DEFAULT_DISCOVERY_LIMITS } from './discovery.js';
import { FetchCache } from './fetch-cache.js';
import { observeAndEvaluate, type ObserveContext } from './observe.js';
import { createParseCache } from './parse-cache.js';
import { createEvaluationMemo } from './evaluation-memo.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from './reading.js';
import { createSafeFetcher, type FetchPolicy } from './safe-fetch.js';
import { createSignalReaderPool } from './signal-reader-pool.js';

// Composition of the RSL engine from configuration: coverage, the safe fetcher and its cache.
// service.ts builds one at start and closes it at stop.

/** Bytes of fetched RSL documents whose parses are kept (a document is at most 512 KiB, usually a few; the
 *  inspection's cache holds as much: INSPECT_PARSE_CACHE_CHARS). */
export const DISCOVERY_PARSE_CACHE_BYTES = 1024 * 1024;
/** Questions whose evaluations are kept per parsed document (evaluation-memo.ts): a resource, its purposes. */
export const EVALUATIONS_PER_DOCUMENT = 64;

export interface RslEngine {
  coverage: Coverage;
  observe(resourceUrl: string, purposes: readonly GatePurpose[], ctx: ObserveContext): Promise<ResourceReading>;
  close(): void;
}

/** What the engine is handed from the configuration (src/config/config.ts): it receives it, never reads it. */
export interface EngineConfig {
  coveredOrigins: readonly string[];
  fetchAllowLoopback: boolean;
  fetchExtraCaFile: string | undefined;
  fetchConnectTo: Record<string, { address: string; port: number }>;
  robotsParseLimitBytes?: number;
}

export function createRslEngine(config: EngineConfig, overrides: Partial<FetchPolicy> = {}): RslEngine {
  const coverage = createCoverage(config.coveredOrigins);
  const fetcher = createSafeFetcher({
    coveredOrigins: coverage.origins,
    allowLoopback: config.fetchAllowLoopback,
    extraCaPem: config.fetchExtraCaFile ? readFileSync(config.fetchExtraCaFile, 'utf8') : undefined,
    connectTo: config.fetchConnectTo,
    ...overrides,
  });
  const cache = new FetchCache(fetcher);
  const limits = {
    ...DEFAULT_DISCOVERY_LIMITS,
    robotsMaxBytes: config.robotsParseLimitBytes ?? DEFAULT_DISCOVERY_LIMITS.robotsMaxBytes,
  };
  // Large robots.txt and tdmrep.json are read off the event loop; the pool's thread starts on the first.
  const signals = createSignalReaderPool();
  const parseCache = createParseCache(DISCOVERY_PARSE_CACHE_BYTES);
  const evaluationMemo = createEvaluationMemo(EVALUATIONS_PER_DOCUMENT);
  return {
    coverage,
    observe: (resourceUrl, purposes, ctx) =>
      observeAndEvaluate(resourceUrl, purposes, ctx, {
        cache,
        coveredOrigins: coverage.origins,
        limits,
        signalReader: signals.read,
        parseCache,
        evaluationMemo,
      }),
    close: () => {
      fetcher.close();
      void signals.close();
    },
  };
}
