import { Refusal } from '@rights-preflight/wire/refusal.js';
import { streamName } from '../../streams/purchase/index.js';
import { claimDigestMatches } from './claim.js';
import { reportNotFound } from './report-not-found.js';
import { redeem } from './redeem.js';
import type { Redemption } from './redemption.js';
import type { ResumeDeps } from './resume.js';
import { loadPurchase } from './purchase-stream.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// GET /v1/rights/reports/{id}: the claim token is both the reader's credential and the binding key
// of the payment nonce. Unknown id, missing claim and wrong claim give the same 404 after the same
// work whatever state the purchase is in: one read of the stored claim digest (the first event's field,
// never the whole stream) and one constant-time comparison (docs/decisions.md, "Constant-work 404").
// Only the claim's holder gets the stream read and folded.
//
// A key-bound purchase (preflight, ingestion gate) answers its key as claim too. A product offered and
// paid only at its own endpoint (the gate's sign-in proof, a revalidation's checkpoints are part of its
// request: its listing's `paidOnlyAt`) has its report URL serve the stored delivery, and before delivery
// answer 409 REPORT_NOT_DELIVERED (docs/wire.md §9).

/** The redemption, with the sku that says which product's bodies present it. */
interface ReportRedemption {
  sku: string;
  redemption: Redemption;
}

/** Where a SKU's purchase is offered and paid when only at its own POST; undefined: at its report URL too. */
export type PaidOnlyAt = (sku: string) => string | undefined;

export async function redeemReport(
  deps: ResumeDeps & { paidOnlyAt: PaidOnlyAt },
  req: { id: string; claim: string | undefined; paymentSignature: string | undefined },
): Promise<ReportRedemption> {
  // A malformed id names no purchase whatever the store holds: answering at once tells nothing.
  if (!PurchaseId.is(req.id)) throw reportNotFound();
  const stored = await deps.store.readFirstField(streamName(req.id), 'claim_sha256');
  if (!claimDigestMatches(req.claim, stored)) throw reportNotFound();
  const loaded = await loadPurchase(deps.store, req.id);
  const sku = loaded.quoted?.sku;
  if (sku === undefined) throw reportNotFound();
  const paidAt = deps.paidOnlyAt(sku);
  if (paidAt && !loaded.delivered && !loaded.held && !loaded.stuck) {
    throw new Refusal(
      'REPORT_NOT_DELIVERED',
      `this purchase is offered and paid at POST ${paidAt} with the same headers; ` +
        'its report URL serves the delivery once it is made',
    );
  }
  const redemption = await redeem(
    deps,
    {
      purchaseId: req.id,
      binding: { key: req.claim!, source: 'x-service-claim' },
      paymentSignature: req.paymentSignature,
    },
    loaded,
  );
  return { sku, redemption };
}
