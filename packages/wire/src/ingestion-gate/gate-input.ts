import {
  IngestionGateRequest,
  GATE_SKU,
  type IngestionGateRequest as GateRequest,
} from '../contract/ingestion-gate.js';
import type { GatePurpose, UserClass } from '../rsl/purposes.js';
import type { Tier } from '../pricing/prices.js';
import { ingestionGatePrice } from '../pricing/prices.js';
import { inputSha256 } from '../payment/binding.js';

// The question an ingestion-gate request asks, in the one form both sides digest (spec §2.3): defaults
// applied, duplicate resources removed keeping the order of first appearance. The service and the buyer
// client compute input_sha256 here, so two bodies that mean the same question ([a, a, b] with defaults
// omitted vs [a, b] with defaults spelled out) bind the same nonce and land on the same purchase.
// Browser-safe: the URL rule (which needs the covered origins) is applied by the service before this.
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

export interface GateInput {
  sku: typeof GATE_SKU;
  body: GateBody;
  descriptor: { type: 'http'; method: 'POST'; bodyType: 'json'; body: GateBody };
  input_sha256: string;
  /** Base + per unique resource (spec §4): what the service must offer for this input. */
  price_micro: bigint;
}

const defaults = IngestionGateRequest.strictProps.optional;

export type GateQuestion = Omit<GateRequest, 'max_total_micro' | 'user_class' | 'geo' | 'freshness_seconds' | 'tier'> &
  Partial<Pick<GateRequest, 'user_class' | 'geo' | 'freshness_seconds' | 'tier'>>;

/** `resources` must already be canonical (the service proves it with the URL rule; a buyer sends them as is). */
export function gateInput(q: GateQuestion): GateInput {
  const unique = [...new Set(q.resources)];
  const body: GateBody = {
    resources: unique,
    purpose: q.purpose,
    user_class: q.user_class ?? defaults.user_class.defaultValue,
    geo: q.geo ?? null,
    freshness_seconds: q.freshness_seconds ?? defaults.freshness_seconds.defaultValue,
    tier: q.tier ?? defaults.tier.defaultValue,
  };
  const descriptor = { type: 'http', method: 'POST', bodyType: 'json', body } as const;
  return {
    sku: GATE_SKU,
    body,
    descriptor,
    input_sha256: inputSha256(descriptor),
    price_micro: ingestionGatePrice(body.tier, unique.length),
  };
}
