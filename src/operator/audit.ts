import { isLeft } from 'fp-ts/lib/Either.js';
import { loadEvidenceKeyFromConfig } from '../evidence/keys.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import type { EventStore, RecordedEvent } from '../store/port.js';
import { PurchaseEvent, type PurchaseEventData } from '../../streams/purchase/events.js';
import { fold } from '../../streams/purchase/evolve.js';
import { withPurchase, type PurchaseIdArg, type PurchaseIdRefusal } from './purchase-id.js';
import type { OperatorSession } from './session.js';
import { idOf, purchaseStream, purchaseStreams, streamsNamed } from './stream-names.js';
import { auditRefundStream, recheckRefundOnChain, refundTransactions, type RefundAudit } from './audit-refund.js';
import { refundChainOf } from './refunds.js';
import { refundStream, REFUND_STREAM_PREFIX } from '../../streams/refund/events.js';
import { sameHex, type Violation } from './violation.js';

// The audit (`ops audit [--purchase <id>]`, GET /operator/v1/audit): re-reads every purchase stream (or
// one, named by its id or a unique prefix: ./purchase-id.ts) and checks the ledger's invariants with the
// service's evidence public key. The CLI exits 1 on any violation (or a prefix that names no single purchase).
//
//   codec        every event decodes with its codec (which also refuses a clear authorization or claim)
//   secrets      no event carries a field that looks like a clear claim token / payment authorization
//   fold         the stream folds (evolve accepts the order of events)
//   settled      at most one settlement (Settled, or an operator-accepted settlement)
//   delivered    at most one Delivered, and only after a settlement
//   signatures   signed quote, offer receipt, evidence and delivery proof verify with the evidence key
//   proof        the delivery proof and payment_settlement name the recorded settlement (tx, network, payer, amount)
// and every refund-request stream (./audit-refund.ts): decodes, folds, names a charge its purchase carried,
// and a paid refund's transaction is, on the chain (RPC_URL), that refund and no other's:
//   chain        a successful USDC transfer to the payer of the recorded amount, from REFUND_SENDERS (if set)

export interface StreamAudit {
  purchase_id: string;
  status: string;
  events: number;
  violations: Violation[];
}

/** Field names that only a clear secret would use: the x402 authorization or the buyer's claim token. */
const CLEAR_SECRET_KEYS = new Set([
  'claim_token',
  'claimToken',
  'x-service-claim',
  'payment_signature',
  'paymentSignature',
  'PAYMENT-SIGNATURE',
  'authorization',
  'private_key',
  'seed',
]);

function secretKeys(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => secretKeys(v, [...path, String(i)], found));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (CLEAR_SECRET_KEYS.has(k)) found.push([...path, k].join('.'));
      secretKeys(v, [...path, k], found);
    }
  }
  return found;
}

export function auditStream(stream: string, events: readonly RecordedEvent[], publicKeyHex: string): StreamAudit {
  const violations: Violation[] = [];
  const v = (e: RecordedEvent | undefined, check: string, message: string) =>
    violations.push({ revision: e ? e.revision.toString() : '-', check, message });
  const id = idOf(stream);
  let settlement: PurchaseEventData<'Settled'> | undefined;
  let settlements = 0;
  let deliveries = 0;

  for (const e of events) {
    const decoded = PurchaseEvent.decode({ type: e.type, data: e.data });
    if (isLeft(decoded)) {
      const paths = [
        ...new Set(
          decoded.left.map((err) =>
            err.context
              .map((c) => c.key)
              .filter(Boolean)
              .join('.'),
          ),
        ),
      ].slice(0, 5);
      v(e, 'codec', `${e.type} does not decode (${paths.join(', ') || 'unknown type'})`);
      continue;
    }
    const found = secretKeys(e.data);
    if (found.length > 0) v(e, 'secrets', `${e.type} has clear-secret field(s): ${found.join(', ')}`);
    const ev = decoded.right;
    switch (ev.type) {
      case 'Quoted':
        if (ev.data.purchase_id !== id)
          v(e, 'identity', `Quoted.purchase_id ${ev.data.purchase_id} is not the stream's id`);
        if (!verifyEnvelope(ev.data.signed_quote, publicKeyHex))
          v(e, 'signatures', 'signed_quote does not verify with the evidence key');
        break;
      case 'Offered':
        if (!verifyEnvelope(ev.data.offer_receipt, publicKeyHex))
          v(e, 'signatures', 'offer_receipt does not verify with the evidence key');
        break;
      case 'Settled':
        settlements++;
        settlement = ev.data;
        if (settlements > 1) v(e, 'settled', `a second settlement (${ev.data.transaction})`);
        break;
      case 'OperatorMoved':
        if (ev.data.target === 'accept_settlement' && ev.data.settlement) {
          if (settlement && !sameHex(settlement.transaction, ev.data.settlement.transaction)) {
            settlements++;
            v(e, 'settled', `operator accepted a second settlement (${ev.data.settlement.transaction})`);
          } else if (!settlement) settlements++;
          settlement = ev.data.settlement;
        }
        break;
      case 'Delivered': {
        deliveries++;
        if (deliveries > 1) v(e, 'delivered', 'a second Delivered');
        auditDelivered(e, ev.data.response, { id, settlement, publicKeyHex }, v);
        break;
      }
      default:
        break;
    }
  }

  let status = 'unreadable';
  try {
    status = fold(events).status;
  } catch (err) {
    v(undefined, 'fold', `the stream does not fold: ${(err as Error).message}`);
  }
  return { purchase_id: id, status, events: events.length, violations };
}

/** What an audit found: the answer of `ops audit --json` and of GET /operator/v1/audit. */
export interface AuditReport {
  key_id: string;
  purchases: number;
  violations: number;
  audits: StreamAudit[];
  refunds: RefundAudit[];
}

export async function auditPurchases(
  session: OperatorSession,
  target: PurchaseIdArg | undefined,
): Promise<AuditReport | { refused: PurchaseIdRefusal }> {
  const key = await loadEvidenceKeyFromConfig(session.config, { generate: false });
  const work = async (store: EventStore, only?: string) => {
    const streams = only ? [purchaseStream(only)] : await purchaseStreams(store);
    const out: StreamAudit[] = [];
    for (const s of streams) {
      const events = await store.readStream(s);
      if (events.length === 0)
        out.push({
          purchase_id: idOf(s),
          status: 'missing',
          events: 0,
          violations: [{ revision: '-', check: 'exists', message: `no stream ${s}` }],
        });
      else out.push(auditStream(s, events, key.publicKeyHex));
    }
    // Every refund stream is read (a transaction recorded twice is found even when auditing one purchase).
    const refundStreams = await streamsNamed(store, REFUND_STREAM_PREFIX);
    const refundEvents = [];
    for (const s of refundStreams)
      refundEvents.push({ stream: s, id: s.slice(REFUND_STREAM_PREFIX.length), events: await store.readStream(s) });
    const byTransaction = refundTransactions(refundEvents);
    const chain = refundChainOf(session.config);
    const refundOut: RefundAudit[] = [];
    for (const { stream, id, events } of refundEvents) {
      if (events.length === 0 || (only && stream !== refundStream(only))) continue;
      const audited = auditRefundStream(stream, events, await store.readStream(purchaseStream(id)));
      audited.violations.push(...(await recheckRefundOnChain(id, events, chain, byTransaction)));
      refundOut.push(audited);
    }
    return { audits: out, refunds: refundOut };
  };
  const outcome = target ? await withPurchase(session, target, work) : await work(await session.store());
  if ('refused' in outcome) return outcome;
  const { audits, refunds } = outcome;
  const bad = [...audits, ...refunds].filter((a) => a.violations.length > 0);
  return {
    key_id: key.keyId,
    purchases: audits.length,
    violations: bad.reduce((n, a) => n + a.violations.length, 0),
    audits,
    refunds,
  };
}

type Report = (e: RecordedEvent | undefined, check: string, message: string) => void;

/** A delivery: it follows a settlement, its envelopes verify and name this purchase, its proof names the transfer. */
function auditDelivered(
  e: RecordedEvent,
  r: PurchaseEventData<'Delivered'>['response'],
  known: { id: string; settlement: PurchaseEventData<'Settled'> | undefined; publicKeyHex: string },
  v: Report,
): void {
  const { id, settlement, publicKeyHex } = known;
  if (!settlement) v(e, 'delivered', 'Delivered before any settlement');
  if (!verifyEnvelope(r.evidence, publicKeyHex)) v(e, 'signatures', 'evidence does not verify with the evidence key');
  if (!verifyEnvelope(r.delivery_proof, publicKeyHex))
    v(e, 'signatures', 'delivery_proof does not verify with the evidence key');
  for (const [name, env] of [
    ['evidence', r.evidence],
    ['delivery_proof', r.delivery_proof],
  ] as const) {
    const pid = env.payload.purchase_id;
    if (pid !== undefined && pid !== id) v(e, 'identity', `${name} names purchase ${String(pid)}`);
  }
  if (settlement) {
    const proof = (r.delivery_proof.payload.settlement ?? undefined) as Record<string, unknown> | undefined;
    if (!proof) v(e, 'proof', 'delivery_proof carries no settlement');
    else {
      if (!sameHex(proof.transaction, settlement.transaction))
        v(
          e,
          'proof',
          `delivery_proof.settlement.transaction ${String(proof.transaction)} ` +
            `is not the settled ${settlement.transaction}`,
        );
      if (proof.network !== undefined && proof.network !== settlement.network)
        v(e, 'proof', `delivery_proof.settlement.network ${String(proof.network)} is not ${settlement.network}`);
      if (proof.payer !== undefined && !sameHex(proof.payer, settlement.payer))
        v(e, 'proof', 'delivery_proof.settlement.payer is not the settled payer');
      if (proof.amount !== undefined && String(proof.amount) !== settlement.amount)
        v(e, 'proof', `delivery_proof.settlement.amount ${String(proof.amount)} is not ${settlement.amount}`);
    }
    if (
      !sameHex(r.payment_settlement.transaction, settlement.transaction) ||
      r.payment_settlement.network !== settlement.network
    ) {
      v(e, 'proof', 'payment_settlement does not name the settled transaction');
    }
  }
}
