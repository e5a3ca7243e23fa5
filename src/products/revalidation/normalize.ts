import type { CheckpointPayload } from '@rights-preflight/wire/contract/checkpoint.js';
import {
  MAX_REVALIDATE_CHECKPOINTS,
  REVALIDATE_SKU,
  type RevalidateRequest,
} from '@rights-preflight/wire/contract/revalidation.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { canonicalResourceUrl } from '@rights-preflight/wire/rsl/resource-url.js';
import type { RevalidationInput } from '../../../streams/purchase/index.js';
import { checkCheckpoint, type PublishedKey } from '@rights-preflight/wire/revalidation/checkpoint-check.js';
import { revalidationInput } from '@rights-preflight/wire/revalidation/revalidation-input.js';

// A revalidation request in its normal form, or a refusal before anything is fetched, stored or offered
// (docs/wire.md §14), in this order: too many → each checkpoint (ours, unaltered, a checkpoint) → its
// resource still covered (the resource rule's own code) → no resource twice → one question (purpose,
// user class, geo) for all. Pure.

export interface RevalidateCall {
  body: RevalidateRequest;
  /** The evidence keys the service publishes. */
  keys: readonly PublishedKey[];
  /** The canonical revalidate URL: the resource of the purchase and of the bound nonce. */
  revalidateUrl: string;
}

export interface NormalizedRevalidation {
  input: RevalidationInput;
  input_sha256: string;
  price_micro: bigint;
  max_total_micro: string;
  /** The verified checkpoint payloads, in request order. */
  previous: CheckpointPayload[];
}

export function normalizeRevalidateRequest(
  call: RevalidateCall,
  coveredOrigins: readonly string[],
): NormalizedRevalidation {
  const { checkpoints, tier } = call.body;
  if (checkpoints.length > MAX_REVALIDATE_CHECKPOINTS)
    throw new Refusal(
      'CHECKPOINTS_TOO_MANY',
      `at most ${MAX_REVALIDATE_CHECKPOINTS} checkpoints per revalidation (nothing was charged)`,
      { max: MAX_REVALIDATE_CHECKPOINTS, count: checkpoints.length },
    );
  const previous = checkpoints.map((envelope, i) => {
    const checked = checkCheckpoint(envelope, call.keys);
    if (!checked.ok) throw new Refusal(checked.code, checked.message, { field: `checkpoints.${i}` });
    const covered = canonicalResourceUrl(checked.payload.resource, coveredOrigins);
    if (!covered.ok) throw new Refusal(covered.code, covered.message, { field: `checkpoints.${i}` });
    return { ...checked.payload, resource: covered.url, checkpoint_sha256: checked.checkpoint_sha256 };
  });
  previous.forEach((p, i) => {
    const first = previous.findIndex((o) => o.resource === p.resource);
    if (first !== i)
      throw new Refusal('CHECKPOINT_DUPLICATE', `checkpoints ${first} and ${i} are for the same resource`, {
        field: `checkpoints.${i}`,
      });
  });
  const [head] = previous;
  const mixed = previous.findIndex(
    (p) => p.purpose !== head!.purpose || p.user_class !== head!.user_class || p.geo !== head!.geo,
  );
  if (mixed !== -1)
    throw new Refusal(
      'CHECKPOINTS_MIXED',
      'every checkpoint of one revalidation must ask the same question (purpose, user_class, geo); ' +
        'send the others in another request',
      { field: `checkpoints.${mixed}` },
    );
  const question = revalidationInput({ checkpoints, tier });
  return {
    input: {
      sku: REVALIDATE_SKU,
      resource: call.revalidateUrl,
      purpose: head!.purpose,
      tier: question.body.tier,
      user_class: head!.user_class,
      geo: head!.geo,
      resources: previous.map((p) => p.resource),
      checkpoint_sha256s: previous.map((p) => p.checkpoint_sha256),
    },
    input_sha256: question.input_sha256,
    price_micro: question.price_micro,
    max_total_micro: call.body.max_total_micro,
    previous: previous.map(({ checkpoint_sha256: _, ...payload }) => payload),
  };
}
