import { boundedReading } from './bounded-reading.js';
import { discover, type DiscoveryDeps, type DiscoveryLimits } from './discovery.js';
import { EvaluationBudget } from '../matching/evaluation-budget.js';
import { evaluatePurpose } from './evaluate/evaluate.js';
import type { EvaluationMemo } from './evaluation-memo.js';
import type { FetchCache, KnownVersion } from './fetch-cache.js';
import type { GatePurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from './reading.js';
import { canonicalResourceUrl, type ResourceUrlErrorCode } from '@rights-preflight/wire/rsl/resource-url.js';

// The one call the paid routes make: discovery + fetch + parse + evaluate for one resource, for
// one or more purposes, returning a JSON-safe ResourceReading ready for events and evidence.

export interface ObserveContext {
  userClass: UserClass;
  geo: string | null;
  /** Spec §2.3: 0..3600, default 300; 0 always refetches. */
  freshnessSeconds: number;
  /** Documents seen before, by URL: fetched conditionally (a revalidation, docs/wire.md §14). */
  known?: ReadonlyMap<string, KnownVersion>;
}

export interface ObserveDeps {
  cache: FetchCache;
  coveredOrigins: readonly string[];
  limits?: DiscoveryLimits;
  now?: () => Date;
  /** Where the AI-use signal readers run (signal-reader-pool.ts); in place when absent. */
  signalReader?: DiscoveryDeps['signalReader'];
  /** Parses of fetched documents by digest (parse-cache.ts). */
  parseCache?: DiscoveryDeps['parseCache'];
  /** Evaluations of the same question against the same documents (evaluation-memo.ts). */
  evaluationMemo?: EvaluationMemo;
}

/** Thrown when the resource fails the §2.2 rule; routes should check first and answer 422. */
export class ResourceRefused extends Error {
  constructor(
    readonly code: ResourceUrlErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export async function observeAndEvaluate(
  resourceUrl: string,
  purposes: readonly GatePurpose[],
  ctx: ObserveContext,
  deps: ObserveDeps,
): Promise<ResourceReading> {
  const checked = canonicalResourceUrl(resourceUrl, deps.coveredOrigins);
  if (!checked.ok) throw new ResourceRefused(checked.code, checked.message);
  const observedAt = (deps.now?.() ?? new Date()).toISOString();
  const found = await discover(checked.url, ctx.freshnessSeconds, {
    cache: deps.cache,
    coveredOrigins: deps.coveredOrigins,
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...(ctx.known ? { known: ctx.known } : {}),
    ...(deps.signalReader ? { signalReader: deps.signalReader } : {}),
    ...(deps.parseCache ? { parseCache: deps.parseCache } : {}),
  });
  const asked = [...new Set(purposes)];
  // One budget for every purpose of this resource: a request's matching work is bounded as a whole.
  const evaluate = () => {
    const budget = new EvaluationBudget();
    return asked.map((purpose) =>
      evaluatePurpose(
        found.inputs,
        { resource: checked.url, purpose, userClass: ctx.userClass, geo: ctx.geo },
        budget,
        found.robotsReadings,
      ),
    );
  };
  const evaluations = deps.evaluationMemo
    ? deps.evaluationMemo.evaluations(
        found.inputs,
        found.robotsReadings,
        { resource: checked.url, purposes: asked, userClass: ctx.userClass, geo: ctx.geo },
        evaluate,
      )
    : evaluate();
  const readings = asked.map((purpose, i) => {
    const e = evaluations[i]!;
    return {
      purpose,
      classification: e.classification,
      decision: e.decision,
      tokens: e.tokens.map((tk) => ({
        token: tk.token,
        classification: tk.classification,
        decision: tk.decision,
        obligations: tk.obligations,
        // Discovery's own reasons (robots.txt unavailable) explain every answer; they come last.
        reasons: [...tk.reasons, ...found.reasons],
        ...(tk.robots_groups ? { robots_groups: tk.robots_groups } : {}),
      })),
    };
  });
  return boundedReading({
    version: 'rsl-reading-v1',
    resource: checked.url,
    origin: checked.origin,
    user_class: ctx.userClass,
    geo: ctx.geo,
    freshness_seconds: ctx.freshnessSeconds,
    observed_at: observedAt,
    declaration_found: found.declarationFound,
    discovery_complete: found.discoveryComplete,
    observations: found.observations,
    documents: found.records,
    diagnostics: found.diagnostics,
    purposes: readings,
    signals: found.signals,
  });
}
