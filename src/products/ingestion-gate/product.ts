import { GATEWAY_VERSION } from '@rights-preflight/wire/contract/common.js';
import {
  GATE_PATH,
  GATE_SKU,
  type IngestionGateRequest,
  type IngestionGateUnavailable,
} from '@rights-preflight/wire/contract/ingestion-gate.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import type { Asked, AskContext, Assessment, Product } from '../../money-path/product.js';
import type { ObserveContext } from '../../rsl/observe.js';
import type { ResourceReading } from '../../rsl/reading.js';
import { severalResourcesQuote } from '../../report/several-resources.js';
import { unavailability } from '../../rsl/unavailability.js';
import { normalizeGateRequest, type NormalizedGate } from './normalize.js';
import { draftGateReport, gateEntry } from './report.js';

// The ingestion gate (SKU rights.ingestion-gate.v1) as a product (docs/decisions.md, "One sale flow"):
// many resources, one purpose, one verdict; sold by POST /v1/rights/ingestion-gate (./gate.ts) to a
// signed-in payer. Its binding resource is the gate URL itself.

/** The RSL reader as the service wires it for the gate. */
export interface GateObserver {
  observeGate(resource: string, purposes: readonly GatePurpose[], ctx: ObserveContext): Promise<ResourceReading>;
}

/** What a gate observes: one reading per unique resource, in request order (stored as the `Quoted` reading). */
type ObservedGate = { version: 'rsl-gate-readings-v1'; readings: ResourceReading[] };

/** The gate request in its normal form, as the sale asks it. */
type GateAsked = NormalizedGate & Asked<typeof GATE_SKU>;

/** The gate URL: the resource of the purchase, of the bound nonce and of the sign-in proof. */
export const gateUrlOf = (deps: { baseUrl: string }) => deps.baseUrl + GATE_PATH;

function askGate(req: IngestionGateRequest, context: AskContext): GateAsked {
  const n = normalizeGateRequest(req, context.coveredOrigins);
  const b = n.body;
  return {
    ...n,
    input: {
      sku: GATE_SKU,
      resource: gateUrlOf(context),
      purpose: b.purpose,
      tier: b.tier,
      user_class: b.user_class,
      geo: b.geo,
      freshness_seconds: b.freshness_seconds,
      resources: b.resources,
    },
  };
}

async function observeGate(deps: GateObserver, n: GateAsked): Promise<ObservedGate> {
  const b = n.body;
  const ctx = { userClass: b.user_class, geo: b.geo, freshnessSeconds: b.freshness_seconds };
  const readings = await Promise.all(b.resources.map((r) => deps.observeGate(r, [b.purpose], ctx)));
  return { version: 'rsl-gate-readings-v1', readings };
}

/** As for a quote (spec §7): no verifiable declaration anywhere → no report, no fee, nothing stored;
 *  FETCH_FAILED when a resource could not be looked at. */
function assessGate(n: GateAsked, { readings }: ObservedGate): Assessment<IngestionGateUnavailable> {
  const b = n.body;
  if (!readings.some((r) => r.declaration_found)) {
    const failures = readings.flatMap((r) => {
      const u = unavailability(r);
      return u?.reason === 'FETCH_FAILED' ? u.details.failures : [];
    });
    return {
      available: false,
      body: {
        version: GATEWAY_VERSION,
        available: false,
        ...(failures.length
          ? { reason: 'FETCH_FAILED' as const, details: { failures } }
          : { reason: 'NO_VERIFIABLE_DECLARATION' as const }),
        input_sha256: n.input_sha256,
        resources: readings.map((r) => ({
          resource: r.resource,
          classification: 'NO_MACHINE_READABLE_DECLARATION' as const,
        })),
        charge_micro: '0',
        legal_clearance: false,
      },
    };
  }
  const entries = readings.map((r) => gateEntry(r, b.purpose));
  const own = { freshness_seconds: n.input.freshness_seconds };
  return { available: true, ...severalResourcesQuote(n.input, n.input_sha256, entries, own) };
}

export const ingestionGateProduct = {
  sku: GATE_SKU,
  normalize: askGate,
  observe: observeGate,
  assess: assessGate,
  draft: draftGateReport,
} satisfies Product<
  typeof GATE_SKU,
  IngestionGateRequest,
  GateAsked,
  GateObserver,
  ObservedGate,
  IngestionGateUnavailable
>;
