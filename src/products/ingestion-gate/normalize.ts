import { Refusal } from '@rights-preflight/wire/refusal.js';
import type { IngestionGateRequest as GateRequest } from '@rights-preflight/wire/contract/ingestion-gate.js';
import { canonicalResourceUrl } from '@rights-preflight/wire/rsl/resource-url.js';
import { gateInput, type GateInput } from '@rights-preflight/wire/ingestion-gate/gate-input.js';

// The gate request after normalization (spec §2.3): every resource checked by the §2.2 rule (which
// accepts only the canonical spelling, so "canonicalized" = proven canonical), then the shared
// question form of ./gate-input.ts (defaults, duplicates removed, input_sha256, price).

export interface NormalizedGate extends GateInput {
  max_total_micro: string;
}

export function normalizeGateRequest(req: GateRequest, coveredOrigins: readonly string[]): NormalizedGate {
  const canonical = req.resources.map((raw, i) => {
    const checked = canonicalResourceUrl(raw, coveredOrigins as string[]);
    if (!checked.ok) throw new Refusal(checked.code, checked.message, { field: `resources.${i}` });
    return checked.url;
  });
  return { ...gateInput({ ...req, resources: canonical }), max_total_micro: req.max_total_micro };
}
