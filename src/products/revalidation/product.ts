import { REVALIDATE_SKU } from '@rights-preflight/wire/contract/revalidation.js';
import type { Product } from '../../money-path/product.js';
import type { KnownVersion } from '../../rsl/fetch-cache.js';
import type { ObserveContext } from '../../rsl/observe.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from '../../rsl/reading.js';
import { normalizeRevalidateRequest, type NormalizedRevalidation, type RevalidateCall } from './normalize.js';
import { draftRevalidationReport, type RevalidationReadings } from './report.js';
import { previousReportSha256 } from './previous-report.js';
import type { EventStore } from '../../store/port.js';

// Revalidation (SKU rights.revalidate.v1) as a product (docs/decisions.md, "Revalidation"):
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
export type ObservedRevalidation = Omit<RevalidationReadings, 'readings'> & { readings: ResourceReading[] };

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

export const revalidationProduct = {
  sku: REVALIDATE_SKU,
  normalize: normalizeRevalidateRequest,
  observe: observeRevalidation,
  draft: draftRevalidationReport,
} satisfies Product<
  typeof REVALIDATE_SKU,
  RevalidateCall,
  NormalizedRevalidation,
  RevalidationObserver,
  ObservedRevalidation
>;
