import * as t from 'io-ts';
import { GatePurpose } from '../rsl/purposes.js';
import { PurchaseId, REPORT_PROFILE, Tier, UserClass } from './common.js';

// The fields a report over several resources opens with, the ingestion gate's (spec §2.5) and the
// revalidation's (docs/wire.md §14): its SKU, and the question as the quote recorded it. Spread into the
// report's t.type, so each report stays one flat codec in the published schema.

export const resourcesReportHeader = <S extends string>(sku: S) => ({
  sku: t.literal(sku),
  profile: t.literal(REPORT_PROFILE),
  legal_clearance: t.literal(false),
  purchase_id: PurchaseId,
  purpose: GatePurpose,
  tier: Tier,
  user_class: UserClass,
  geo: t.union([t.string, t.null]),
});
