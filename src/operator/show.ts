import { reportRow } from '../../projections/queries/purchases.js';
import { refundRow, type ListedRefund } from '../../projections/queries/refunds.js';
import type { ReportRow } from '../../projections/report-view/report-row.js';
import { soldLinesOf, type SoldLine } from '../../projections/report-view/resource-lines.js';
import { purchaseHistory, type HistoryEntry } from './history.js';
import { resolvePurchaseId, type PurchaseIdArg } from './purchase-id.js';
import type { OperatorSession } from './session.js';

// One purchase as an operator sees it (`ops show`): its report-view row (status, what was asked, what
// was paid, the delivered digests), one line per resource it sold (an ingestion gate's URLs each under
// its own origin and classification, all tied to the one payment), every event of its stream as
// history.ts summarizes them (never the sealed authorization, the claim digest or a payment
// signature), and its refund request from rm_refunds, if one was filed.

export interface ShownPurchase {
  purchase: ReportRow;
  resources: SoldLine[];
  history: HistoryEntry[];
  refund: ListedRefund | null;
}

export async function showPurchase(
  session: OperatorSession,
  wanted: PurchaseIdArg,
): Promise<ShownPurchase | { refused: { code: string; message: string } }> {
  const models = await session.models();
  const r = await resolvePurchaseId(models.db, wanted);
  if ('refused' in r) return r;
  const purchase = await reportRow(models.db, r.id);
  if (!purchase) return { refused: { code: 'NO_SUCH_PURCHASE', message: `no purchase ${r.id}` } };
  return {
    purchase,
    resources: soldLinesOf(purchase),
    history: await purchaseHistory(await session.store(), r.id),
    refund: await refundRow(models.db, r.id),
  };
}
