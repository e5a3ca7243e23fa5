import { GATEWAY_VERSION } from '@rights-preflight/wire/contract/common.js';
import {
  REVALIDATE_PATH,
  REVALIDATE_SKU,
  type RevalidationUnavailable,
} from '@rights-preflight/wire/contract/revalidation.js';
import type { PublishedKey } from '@rights-preflight/wire/revalidation/checkpoint-check.js';
import type { AskContext, Assessment, Product } from '../../money-path/product.js';
import { purposeReading, reportReading } from '../../report/report-reading.js';
import { severalResourcesQuote } from '../../report/several-resources.js';
import { unavailability } from '../../rsl/unavailability.js';
import type { KnownVersion } from '../../rsl/fetch-cache.js';
import type { ObserveContext } from '../../rsl/observe.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from '../../rsl/reading.js';
import { normalizeRevalidateRequest, type NormalizedRevalidation, type RevalidateCall } from './normalize.js';
import { draftRevalidationReport, type RevalidationReadings } from './report.js';
import { previousReportSha256 } from './previous-report.js';
import type { EventStore } from '../../store/port.js';

// Revalidation (SKU rights.revalidate.v1) as a product (docs/decisions.md, "Revalidation", "One sale flow"):
// one to four checkpoints of earlier reports, each resource observed again by the same engine as a fresh
// report (never more permissive), its RSL documents asked for conditionally; sold by
// POST /v1/rights/revalidate (./revalidate.ts).

/** The RSL reader as the service wires it (the gate's, given the checkpoint's documents), and the store
 *  the earlier reports are found in. */
export interface RevalidationObserver {
  observeGate(resource: string, purposes: readonly GatePurpose[], ctx: ObserveContext): Promise<ResourceReading>;
  store: EventStore;
}

/** What a revalidation observes (stored as the `Quoted` reading; ./report.ts reads it back as RevalidationReadings). */
type ObservedRevalidation = Omit<RevalidationReadings, 'readings'> & { readings: ResourceReading[] };

/** Every resource read again, nothing taken from a cache: the documents held are validated by the publisher. */
const REVALIDATION_FRESHNESS_SECONDS = 0;

/** The earlier reports first (a refusal fetches nothing), then every resource again. */
async function observeRevalidation(
  deps: RevalidationObserver,
  n: NormalizedRevalidation,
): Promise<ObservedRevalidation> {
  const reports = await Promise.all(n.previous.map((p, i) => previousReportSha256(deps.store, p, i)));
  const readings = await Promise.all(
    n.previous.map((p) => {
      const known = new Map<string, KnownVersion>(
        p.documents.map((d) => [d.url, { sha256: d.sha256, etag: d.etag, lastModified: d.last_modified }]),
      );
      const ctx = { userClass: p.user_class, geo: p.geo, freshnessSeconds: REVALIDATION_FRESHNESS_SECONDS, known };
      return deps.observeGate(p.resource, [p.purpose], ctx);
    }),
  );
  return {
    version: 'rsl-revalidation-readings-v1',
    readings,
    previous: n.previous.map((checkpoint, i) => ({ checkpoint, report_sha256: reports[i]! })),
  };
}

/** A revalidation request: its body and the evidence keys a checkpoint must be signed by. */
type RevalidationAsk = Omit<RevalidateCall, 'revalidateUrl'>;

/** The revalidate URL: the resource of the purchase and of the bound nonce. */
const askRevalidation = (call: RevalidationAsk, context: AskContext): NormalizedRevalidation =>
  normalizeRevalidateRequest({ ...call, revalidateUrl: context.baseUrl + REVALIDATE_PATH }, context.coveredOrigins);

/**
 * Could not look at any resource: as for a quote (spec §7), nothing stored, nothing charged. A resource
 * whose declaration is gone is not this: the withdrawal is what the buyer pays to learn (decisions.md).
 */
function assessRevalidation(
  n: NormalizedRevalidation,
  reading: ObservedRevalidation,
  purchaseId: string,
): Assessment<RevalidationUnavailable> {
  const readings = reading.readings.map((r) => reportReading(r, purchaseId));
  const failures = reading.readings.map((r) => unavailability(r));
  if (failures.every((u) => u?.reason === 'FETCH_FAILED')) {
    return {
      available: false,
      body: {
        version: GATEWAY_VERSION,
        available: false,
        reason: 'FETCH_FAILED',
        input_sha256: n.input_sha256,
        details: { failures: failures.flatMap((u) => (u?.reason === 'FETCH_FAILED' ? u.details.failures : [])) },
        charge_micro: '0',
        legal_clearance: false,
      },
    };
  }
  const { input } = n;
  const entries = readings.map((r) => ({
    resource: r.resource,
    classification: purposeReading(r, input.purpose).classification,
  }));
  return { available: true, ...severalResourcesQuote(input, n.input_sha256, entries, {}) };
}

export const revalidationProduct = {
  sku: REVALIDATE_SKU,
  normalize: askRevalidation,
  observe: observeRevalidation,
  assess: assessRevalidation,
  draft: draftRevalidationReport,
} satisfies Product<
  typeof REVALIDATE_SKU,
  RevalidationAsk,
  NormalizedRevalidation,
  RevalidationObserver,
  ObservedRevalidation,
  RevalidationUnavailable
>;

/** The evidence keys the service publishes (capabilities): a checkpoint must be signed by one. */
export type EvidenceKeys = readonly PublishedKey[];
