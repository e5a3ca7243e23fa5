import { claimMatches } from './claim.js';
import { reportNotFound } from './report-not-found.js';
import { redeem } from './redeem.js';
import type { Redemption } from './redemption.js';
import type { ResumeDeps } from './resume.js';
import { loadPurchase } from './purchase-stream.js';

// GET /v1/rights/reports/{id}: the claim token is both the reader's credential and the binding key
// of the payment nonce. Unknown id, missing claim and wrong claim give the same 404, and the claim
// is compared as sha256 in constant time.
export async function redeemReport(
  deps: ResumeDeps,
  req: { id: string; claim: string | undefined; paymentSignature: string | undefined },
): Promise<Redemption> {
  if (!/^[0-9a-f]{64}$/.test(req.id) || !req.claim) throw reportNotFound();
  const loaded = await loadPurchase(deps.store, req.id);
  if (!claimMatches(req.claim, loaded.quoted?.claim_sha256)) throw reportNotFound();
  return redeem(
    deps,
    {
      purchaseId: req.id,
      binding: { key: req.claim, source: 'x-service-claim' },
      paymentSignature: req.paymentSignature,
    },
    loaded,
  );
}
