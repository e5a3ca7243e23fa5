import type { RevalidateRequest, RevalidationUnavailable } from '@rights-preflight/wire/contract/revalidation.js';
import { sell, type KeyBound, type SaleDeps, type SaleOutcome } from '../../money-path/sale.js';
import { revalidationProduct, type EvidenceKeys, type RevalidationObserver } from './product.js';

// POST /v1/rights/revalidate: the sale end to end (../../money-path/sale.ts), key-bound exactly as
// preflight (X-Service-Request, bound nonce, 402 first; no sign-in). Everything that can be refused without
// the network is refused before anything is fetched, stored or offered:
//   body rules → checkpoints (count, signature, key, coverage, duplicates, one question) → budget
//   → X-Service-Request → (first time) the earlier reports in our store.
// Then every resource is observed again and `Quoted` appended; then the shared redeem path.

type RevalidateOutcome = SaleOutcome<RevalidationUnavailable>;

type RevalidateDeps = SaleDeps<RevalidationObserver> & {
  /** The evidence keys the service publishes (capabilities): a checkpoint must be signed by one. */
  evidenceKeys: EvidenceKeys;
};

export function revalidate(deps: RevalidateDeps, body: RevalidateRequest, call: KeyBound): Promise<RevalidateOutcome> {
  return sell(deps, revalidationProduct, { ...call, request: { body, keys: deps.evidenceKeys } });
}
