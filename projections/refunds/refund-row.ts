import { evolveRefund } from '../../streams/refund/evolve.js';
import type { RefundFactEvent } from '../feed/fact-event.js';
import type { RefundStatusValue } from './refund-status.js';

// One row per refund request, its status from the refund stream's own `evolveRefund`.

export interface RefundRow {
  purchase_id: string;
  status: Exclude<RefundStatusValue, 'none'>;
  reason: string;
  amount_micro: string;
  requested_at: string;
  reviewed_at: string | null;
  paid_transaction: string | null;
  updated_position: string;
}

export function applyToRefundRow(row: RefundRow | undefined, e: RefundFactEvent): RefundRow | undefined {
  const status = evolveRefund({ status: row?.status ?? 'none', version: 0 }, e).status;
  if (status === 'none') return row;
  const updated_position = e.position.toString();
  switch (e.type) {
    case 'RefundRequested':
      return {
        purchase_id: e.purchase_id,
        status,
        reason: e.data.reason,
        amount_micro: e.data.charge.amount_micro,
        requested_at: e.data.at,
        reviewed_at: null,
        paid_transaction: null,
        updated_position,
      };
    case 'RefundReviewed':
      return row && { ...row, status, reviewed_at: e.data.at, updated_position };
    case 'RefundPaymentRecorded':
      return row && { ...row, status, paid_transaction: e.data.transaction, updated_position };
  }
}
