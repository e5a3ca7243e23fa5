import type { RecordedEvent } from '../src/store/port.js';
import type { Projection } from './runner.js';

// Operator investigation queue: every Held or LockStuck purchase with its history. Pure over the
// purchase events; rebuildable. An OperatorMoved takes the purchase off the queue (the operator has
// dealt with it); its history, including the move, is kept, so if it is held again it comes back with
// everything. History is kept for open purchases only (dropped on delivery) so the state stays
// proportional to the purchases in flight plus the queue.

export interface HistoryEntry { type: string; position: string; at: string; summary: Record<string, unknown> }
export interface QueueItem {
  purchase_id: string;
  kind: 'held' | 'lock_stuck';
  reason: string;
  details: Record<string, unknown>;
  since_position: string;
  history: HistoryEntry[];
}
export interface InvestigationQueue {
  open: Record<string, HistoryEntry[]>;
  items: Record<string, QueueItem>;
}

const PREFIX = 'purchase-';
type D = Record<string, any>;

// Only non-secret, small facts go into the history: never sealed authorizations or claims.
function summarize(type: string, d: D): Record<string, unknown> {
  switch (type) {
    case 'Quoted': return { resource: d.input?.resource, purpose: d.input?.purpose, price_micro: d.price_micro, expires_at: d.expires_at };
    case 'Offered': return { nonce: d.nonce, amount: d.requirements?.amount, pay_to: d.requirements?.payTo };
    case 'AuthorizationCheckpointed': return { payer: d.payer, nonce: d.nonce, amount: d.amount, valid_before: d.valid_before, payment_sha256: d.payment_sha256 };
    case 'SettlementSubmitted': return { transaction: d.transaction ?? null, reason: d.reason };
    case 'Settled': return { transaction: d.transaction, payer: d.payer, amount: d.amount, block: d.block };
    case 'Held': case 'LockStuck': return { reason: d.reason, details: d.details ?? {} };
    case 'OperatorMoved': return { target: d.target, operator: d.operator, note: d.note };
    default: return { reason: d.reason ?? null };
  }
}

export function applyQueueEvent(q: InvestigationQueue, event: RecordedEvent): InvestigationQueue {
  if (!event.stream.startsWith(PREFIX)) return q;
  const id = event.stream.slice(PREFIX.length);
  const d = (event.data ?? {}) as D;
  const entry: HistoryEntry = { type: event.type, position: event.position.toString(), at: event.created instanceof Date ? event.created.toISOString() : String(event.created), summary: summarize(event.type, d) };
  if (event.type === 'Delivered') {
    const { [id]: _done, ...open } = q.open;
    return { ...q, open };
  }
  const history = [...(q.open[id] ?? q.items[id]?.history ?? []), entry];
  if (event.type === 'Held' || event.type === 'LockStuck') {
    return {
      open: { ...q.open, [id]: history },
      items: {
        ...q.items,
        [id]: { purchase_id: id, kind: event.type === 'Held' ? 'held' : 'lock_stuck', reason: String(d.reason ?? 'UNKNOWN'), details: d.details ?? {}, since_position: entry.position, history },
      },
    };
  }
  if (event.type === 'OperatorMoved') {
    const { [id]: _moved, ...items } = q.items; // off the queue; the history stays in `open`
    return { open: { ...q.open, [id]: history }, items };
  }
  const items = q.items[id] ? { ...q.items, [id]: { ...q.items[id]!, history } } : q.items;
  return { open: { ...q.open, [id]: history }, items };
}

export const investigationQueueProjection: Projection<InvestigationQueue> = {
  name: 'investigation-queue',
  // 2: OperatorMoved takes a purchase off the queue (stored states of version 1 are rebuilt).
  version: 2,
  initial: { open: {}, items: {} },
  apply: applyQueueEvent,
};
