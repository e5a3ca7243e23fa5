import { ApiError } from '../http/errors.js';
import { IngestionGateRequest, GATE_SKU, type IngestionGateRequest as GateRequest } from '../http/wire/ingestion-gate.js';
import { canonicalResourceUrl } from '../rsl/resource-url.js';
import type { GatePurpose, UserClass } from '../rsl/purposes.js';
import type { Tier } from '../pricing/prices.js';
import { ingestionGatePrice } from '../pricing/prices.js';
import { inputSha256 } from '../payment/binding.js';

// The gate request after normalization (spec §2.3): defaults applied, every resource checked by the
// §2.2 rule (which accepts only the canonical spelling, so "canonicalized" = proven canonical),
// duplicates removed keeping the order of first appearance. All of it happens BEFORE input_sha256, so
// two bodies that mean the same question ([a, a, b] with defaults omitted vs [a, b] with defaults
// spelled out) bind the same nonce and land on the same purchase stream.
//
// input_sha256 = sha256(JCS(descriptor)) where the descriptor is the spec's input wrapper
//   {type:'http', method:'POST', bodyType:'json', body:{resources, purpose, user_class, geo, freshness_seconds, tier}}.
// `max_total_micro` is not part of it: a budget caps the price, it does not change the question.

export interface GateBody {
  resources: string[];
  purpose: GatePurpose;
  user_class: UserClass;
  geo: string | null;
  freshness_seconds: number;
  tier: Tier;
}

export interface NormalizedGate {
  sku: typeof GATE_SKU;
  body: GateBody;
  descriptor: { type: 'http'; method: 'POST'; bodyType: 'json'; body: GateBody };
  input_sha256: string;
  price_micro: bigint;
  max_total_micro: string;
}

const defaults = IngestionGateRequest.strictProps.optional;

export function normalizeGateRequest(req: GateRequest, coveredOrigins: readonly string[]): NormalizedGate {
  const unique: string[] = [];
  req.resources.forEach((raw, i) => {
    const checked = canonicalResourceUrl(raw, coveredOrigins as string[]);
    if (!checked.ok) throw new ApiError(422, checked.code, checked.message, { field: `resources.${i}` });
    if (!unique.includes(checked.url)) unique.push(checked.url);
  });
  const body: GateBody = {
    resources: unique,
    purpose: req.purpose,
    user_class: req.user_class ?? defaults.user_class.defaultValue,
    geo: req.geo ?? null,
    freshness_seconds: req.freshness_seconds ?? defaults.freshness_seconds.defaultValue,
    tier: req.tier ?? defaults.tier.defaultValue,
  };
  const descriptor = { type: 'http', method: 'POST', bodyType: 'json', body } as const;
  return {
    sku: GATE_SKU,
    body,
    descriptor,
    input_sha256: inputSha256(descriptor),
    price_micro: ingestionGatePrice(body.tier, unique.length),
    max_total_micro: req.max_total_micro,
  };
}
