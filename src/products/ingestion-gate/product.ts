import type { IngestionGateRequest } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { GATE_SKU } from '@rights-preflight/wire/contract/ingestion-gate.js';
import type { Product } from '../../money-path/product.js';
import type { ObserveContext } from '../../rsl/observe.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { ResourceReading } from '../../rsl/reading.js';
import { normalizeGateRequest, type NormalizedGate } from './normalize.js';
import { draftGateReport } from './report.js';

// The ingestion gate (SKU rights.ingestion-gate.v1) as a product (docs/decisions.md, "Products on the
// money path"): many resources, one purpose, one verdict; sold by POST /v1/rights/ingestion-gate
// (./gate.ts) to a signed-in payer.

/** The RSL reader as the service wires it for the gate. */
export interface GateObserver {
  observeGate(resource: string, purposes: readonly GatePurpose[], ctx: ObserveContext): Promise<ResourceReading>;
}

/** What a gate observes: one reading per unique resource, in request order (stored as the `Quoted` reading). */
export type ObservedGate = { version: 'rsl-gate-readings-v1'; readings: ResourceReading[] };

async function observeGate(deps: GateObserver, n: NormalizedGate): Promise<ObservedGate> {
  const b = n.body;
  const ctx = { userClass: b.user_class, geo: b.geo, freshnessSeconds: b.freshness_seconds };
  const readings = await Promise.all(b.resources.map((r) => deps.observeGate(r, [b.purpose], ctx)));
  return { version: 'rsl-gate-readings-v1', readings };
}

export const ingestionGateProduct = {
  sku: GATE_SKU,
  normalize: normalizeGateRequest,
  observe: observeGate,
  draft: draftGateReport,
} satisfies Product<typeof GATE_SKU, IngestionGateRequest, NormalizedGate, GateObserver, ObservedGate>;
