import { REPORT_PROFILE } from '@rights-preflight/wire/contract/common.js';
import type { PurchaseEventData } from '../../streams/purchase/index.js';

/** The fields every SKU's report opens with: what was asked, as the quote recorded it. */
export function reportHeader<Q extends PurchaseEventData<'Quoted'>>(quoted: Q) {
  return {
    sku: quoted.sku as Q['sku'],
    profile: REPORT_PROFILE,
    legal_clearance: false as const,
    purchase_id: quoted.purchase_id,
    purpose: quoted.input.purpose as Q['input']['purpose'],
    tier: quoted.input.tier as Q['input']['tier'],
    user_class: quoted.input.user_class as Q['input']['user_class'],
  };
}
