import type { Classification } from '@rights-preflight/wire/contract/common.js';
import type { GatePurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import { decisionFor } from '@rights-preflight/wire/rsl/vocabulary.js';
import { mostRestrictive } from './most-restrictive.js';

// What the products that sell several resources in one report (the gate, revalidation) state of their
// question, in the quote they sign and in the evidence they deliver: the same fields in the same order,
// a product's own fields after `geo` (the gate's freshness_seconds). The order is part of what is signed
// and delivered (docs/wire.md), so it is written here once.

/** The question of a several-resource purchase, as its `Quoted` input holds it. */
interface SeveralResourcesInput {
  resource: string;
  resources: string[];
  purpose: GatePurpose;
  tier: 'fresh' | 'deep';
  user_class: UserClass;
  geo: string | null;
}

/** A quote's subject (after purchase_id and sku) and its preview: the most restrictive of the entries. */
export function severalResourcesQuote<Own extends object>(
  input: SeveralResourcesInput,
  inputSha256: string,
  entries: readonly { resource: string; classification: Classification }[],
  own: Own,
) {
  const combined = mostRestrictive(entries);
  return {
    subject: {
      resource: input.resource,
      resources: input.resources,
      purpose: input.purpose,
      tier: input.tier,
      user_class: input.user_class,
      geo: input.geo,
      ...own,
      input_sha256: inputSha256,
      classifications: entries.map((e) => ({ resource: e.resource, classification: e.classification })),
    },
    preview: { purpose: input.purpose, classification: combined, decision: decisionFor(combined) },
  };
}

/** The evidence payload: the question, the product's entry for each resource, the evidence key. */
export function severalResourcesEvidence<Own extends object, Entry>(
  q: { sku: string; purchase_id: string; input_sha256: string; input: SeveralResourcesInput },
  own: Own,
  resources: Entry[],
  evidenceKeyId: string,
) {
  const { input } = q;
  return {
    type: 'evidence',
    sku: q.sku,
    purchase_id: q.purchase_id,
    input_sha256: q.input_sha256,
    legal_clearance: false,
    purpose: input.purpose,
    user_class: input.user_class,
    geo: input.geo,
    ...own,
    tier: input.tier,
    resources,
    key_id: evidenceKeyId,
  };
}
