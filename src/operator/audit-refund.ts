import { isLeft } from 'fp-ts/lib/Either.js';
import type { RecordedEvent } from '../store/port.js';
import { fold } from '../../streams/purchase/evolve.js';
import { foldRefund, RefundEvent, REFUND_STREAM_PREFIX } from '../../streams/refund/index.js';
import { sameHex, type Violation } from './violation.js';
import { judgeRefundTransfer } from '../../streams/refund/refund-transfer.js';
import { RefundChainUnavailable } from '../refund/refund-transfer-reads.js';
import type { RefundChainCheck } from './refunds.js';

// The refund-request half of `audit`: a refund stream must decode and fold, belong to a purchase that
// exists, describe a charge that purchase really carried (payer, amount, and the settlement transaction
// when it names one), and never record a refund larger than that charge. A paid refund is read again
// on the chain (recheckRefundOnChain).

export interface RefundAudit {
  purchase_id: string;
  status: string;
  events: number;
  violations: Violation[];
}

export function auditRefundStream(
  stream: string,
  events: readonly RecordedEvent[],
  purchaseEvents: readonly RecordedEvent[],
): RefundAudit {
  const violations: Violation[] = [];
  const v = (e: RecordedEvent | undefined, check: string, message: string) =>
    violations.push({ revision: e ? e.revision.toString() : '-', check, message });
  const id = stream.slice(REFUND_STREAM_PREFIX.length);
  for (const e of events) {
    if (isLeft(RefundEvent.decode({ type: e.type, data: e.data }))) v(e, 'codec', `${e.type} does not decode`);
  }
  let status = 'unreadable';
  try {
    const s = foldRefund(events);
    status = s.status;
    const r = s.request;
    if (r && r.purchase_id !== id)
      v(events[0], 'identity', `RefundRequested.purchase_id ${r.purchase_id} is not the stream's id`);
    if (purchaseEvents.length === 0) v(events[0], 'purchase', `no purchase stream for ${id}`);
    else if (r) {
      const p = fold(purchaseEvents);
      const charged = p.settled ?? p.checkpoint;
      if (!charged) v(events[0], 'charge', 'the purchase carries no checkpointed authorization or settlement');
      else {
        if (charged.amount !== r.charge.amount_micro)
          v(events[0], 'charge', `requested charge ${r.charge.amount_micro} is not the purchase's ${charged.amount}`);
        if (!sameHex(charged.payer, r.charge.payer))
          v(events[0], 'charge', "requested payer is not the purchase's payer");
      }
      if (r.charge.transaction !== null && (!p.settled || !sameHex(p.settled.transaction, r.charge.transaction))) {
        v(events[0], 'charge', `requested transaction ${r.charge.transaction} is not the purchase's settlement`);
      }
    }
    if (s.payment && r && BigInt(s.payment.amount_micro) > BigInt(r.charge.amount_micro)) {
      v(
        events.at(-1),
        'refund',
        `recorded refund ${s.payment.amount_micro} exceeds the charge ${r.charge.amount_micro}`,
      );
    }
  } catch (err) {
    v(undefined, 'fold', `the stream does not fold: ${(err as Error).message}`);
  }
  return { purchase_id: id, status, events: events.length, violations };
}

/** Every recorded refund transaction (lowercase) and the purchases whose refunds record it. */
export function refundTransactions(refunds: readonly { id: string; events: readonly RecordedEvent[] }[]) {
  const byTransaction = new Map<string, string[]>();
  for (const r of refunds)
    for (const e of r.events) {
      const tx = (e.data as { transaction?: unknown }).transaction;
      if (e.type === 'RefundPaymentRecorded' && typeof tx === 'string')
        byTransaction.set(tx.toLowerCase(), [...(byTransaction.get(tx.toLowerCase()) ?? []), r.id]);
    }
  return byTransaction;
}

/**
 * A paid refund, read again on the chain: the recorded transaction must still be the refund it was
 * recorded as (the rule of `refunds paid`, streams/refund/refund-transfer.ts), and no other refund may
 * record it. A chain that cannot be read is a violation too: the refund was not re-checked.
 */
export async function recheckRefundOnChain(
  id: string,
  events: readonly RecordedEvent[],
  chain: RefundChainCheck,
  byTransaction: ReadonlyMap<string, readonly string[]>,
): Promise<Violation[]> {
  let s;
  try {
    s = foldRefund(events);
  } catch {
    return []; // the fold check reports it
  }
  if (!s.payment || !s.request) return [];
  const at = events.find((e) => e.type === 'RefundPaymentRecorded')?.revision.toString() ?? '-';
  const tx = s.payment.transaction;
  const usedBy = byTransaction.get(tx.toLowerCase())?.find((other) => other !== id);
  let onChain;
  try {
    onChain = await chain.read()(tx);
  } catch (err) {
    if (!(err instanceof RefundChainUnavailable)) throw err;
    return [{ revision: at, check: 'chain', message: `refund ${tx} not re-checked: ${err.message}` }];
  }
  const wrong = judgeRefundTransfer(
    { ...onChain, ...(usedBy !== undefined ? { usedBy } : {}) },
    { payer: s.request.charge.payer, amount_micro: s.payment.amount_micro, senders: chain.senders },
  );
  return wrong ? [{ revision: at, check: 'chain', message: `${wrong.code}: ${wrong.message}` }] : [];
}
