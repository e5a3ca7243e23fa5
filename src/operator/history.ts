import type { EventStore } from '../store/port.js';
import { streamName } from '../../streams/purchase/purchase-id.js';

// A purchase's timeline for operators, read from its stream when asked (the read models keep no
// history). Only small, non-secret facts per event: never the sealed authorization, never a claim.

export interface HistoryEntry {
  type: string;
  revision: string;
  position: string;
  at: string;
  summary: Record<string, unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: event data of any stream type, only printed
type D = Record<string, any>;

function summarize(type: string, d: D): Record<string, unknown> {
  switch (type) {
    case 'Quoted':
      return {
        resource: d.input?.resource,
        purpose: d.input?.purpose,
        price_micro: d.price_micro,
        expires_at: d.expires_at,
      };
    case 'Offered':
      return { nonce: d.nonce, amount: d.requirements?.amount, pay_to: d.requirements?.payTo };
    case 'AuthorizationCheckpointed':
      return {
        payer: d.payer,
        nonce: d.nonce,
        amount: d.amount,
        valid_before: d.valid_before,
        payment_sha256: d.payment_sha256,
      };
    case 'SettlementSubmitted':
      return { transaction: d.transaction ?? null, reason: d.reason };
    case 'SettlementBroadcast':
      return { transaction: d.transaction, account_nonce: d.account_nonce, replaces: d.replaces ?? null };
    case 'Settled':
      return { transaction: d.transaction, payer: d.payer, amount: d.amount, block: d.block };
    case 'Delivered':
      return {
        transaction: d.response?.payment_settlement?.transaction,
        delivered_at: d.response?.delivery_proof?.payload?.delivered_at,
      };
    case 'Held':
    case 'LockStuck':
      return { reason: d.reason, details: d.details ?? {} };
    case 'OperatorMoved':
      return { target: d.target, operator: d.operator, note: d.note };
    default:
      return {};
  }
}

export async function purchaseHistory(store: EventStore, purchaseId: string): Promise<HistoryEntry[]> {
  return (await store.readStream(streamName(purchaseId))).map((e) => ({
    type: e.type,
    revision: e.revision.toString(),
    position: e.position.toString(),
    at: e.created.toISOString(),
    summary: summarize(e.type, (e.data ?? {}) as D),
  }));
}
