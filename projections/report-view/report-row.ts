import { advance } from '../../streams/purchase/progress.js';
import type { PurchaseStatus } from '../../streams/purchase/state.js';
import type { ResourceLineFacts } from '../../streams/purchase/facts.js';
import { isoTime, type PurchaseFactEvent } from '../feed/fact-event.js';

// The report view: one row per purchase. Pure: (row, event) → row. The status, submissions and
// locked_from are the stream's own `advance` (streams/purchase/progress.ts), so the view can never
// disagree with the decider. The row also carries the facts the compliance read model copies at
// delivery (what was observed, what was paid, the delivered digests).

export interface ReportRow {
  purchase_id: string;
  status: PurchaseStatus;
  submissions: number;
  locked_from: PurchaseStatus | null;
  sku: string;
  resource: string;
  origin: string | null;
  purpose: string;
  user_class: string;
  tier: string;
  geo: string | null;
  classification: string;
  decision: string;
  observed_at: string | null;
  rsl_document_sha256: string[];
  /** An ingestion gate's resources as sold, one line each (origin and classification their own); null for
   *  a single report, whose line is the row's own resource, origin and classification. */
  resources: ResourceLineFacts[] | null;
  price_micro: string;
  expires_at: string;
  quoted_at: string;
  payer: string | null;
  settled_amount_micro: string | null;
  network: string | null;
  transaction: string | null;
  evidence_key_id: string | null;
  report_sha256: string | null;
  evidence_sha256: string | null;
  delivery_proof_sha256: string | null;
  delivered_at: string | null;
  /** What the delivered report states per resource line: `changed` since the checkpoint (a revalidation's
   *  lines); null before delivery and for every other SKU. */
  changed: boolean[] | null;
  /** What the delivered report states per resource line about the signals beside RSL (docs/wire.md §15): its
   *  `signals_summary`, and its observations as "standard:sha256"; each null for a line of a report drafted
   *  before the signals beside RSL were read; the whole array null before delivery and when no line states any. */
  signals_summary: (string | null)[] | null;
  signals: (string[] | null)[] | null;
  /** The open hold's or stuck lock's reason; null once an operator moved the purchase on. */
  lock_reason: string | null;
  updated_position: string;
}

const progressOf = (row: ReportRow) => ({
  status: row.status,
  submissions: row.submissions,
  ...(row.locked_from ? { locked_from: row.locked_from } : {}),
});

/** Applies one purchase event; a stream whose Quoted was never seen has no row to place it in. */
export function applyToReportRow(row: ReportRow | undefined, e: PurchaseFactEvent): ReportRow | undefined {
  const updated_position = e.position.toString();
  if (e.type === 'Quoted') {
    const f = e.facts;
    return {
      purchase_id: e.purchase_id,
      status: 'quoted',
      submissions: 0,
      locked_from: null,
      sku: f.sku,
      resource: f.resource,
      origin: f.origin,
      purpose: f.purpose,
      user_class: f.user_class,
      tier: f.tier,
      geo: f.geo,
      classification: f.classification,
      decision: f.decision,
      observed_at: f.observed_at,
      rsl_document_sha256: f.rsl_documents,
      resources: f.resources,
      price_micro: f.price_micro,
      expires_at: f.expires_at,
      quoted_at: isoTime(e.created),
      payer: f.payer,
      settled_amount_micro: null,
      network: null,
      transaction: null,
      evidence_key_id: null,
      report_sha256: null,
      evidence_sha256: null,
      delivery_proof_sha256: null,
      delivered_at: null,
      changed: null,
      signals_summary: null,
      signals: null,
      lock_reason: null,
      updated_position,
    };
  }
  if (!row) return undefined;
  const p = advance(
    progressOf(row),
    e.type === 'OperatorMoved' ? { type: e.type, target: e.facts.target } : { type: e.type },
  );
  // One copy of the row per event, made by a spread alone (V8 clones the row's shape in one step) and then
  // written field by field: a spread followed by more fields built a new shape per event, which was most
  // of a full purchase's apply time in a rebuild (docs/decisions.md, "Rebuilds of quotes").
  const next = { ...row };
  next.status = p.status;
  next.submissions = p.submissions;
  next.locked_from = p.locked_from ?? null;
  next.updated_position = updated_position;
  setChanges(next, e);
  return next;
}

/** Writes into `next` (a fresh copy of the row) the columns an event other than Quoted sets, besides the progress. */
function setChanges(next: ReportRow, e: Exclude<PurchaseFactEvent, { type: 'Quoted' }>): void {
  switch (e.type) {
    case 'Offered':
    case 'SettlementBroadcast': // a transaction not yet known to be mined: the row names settled ones only
      return;
    case 'AuthorizationCheckpointed':
      next.payer = e.facts.payer;
      return;
    case 'SettlementSubmitted':
      next.transaction = e.facts.transaction ?? next.transaction;
      return;
    case 'Settled':
      setSettlement(next, e.facts);
      return;
    case 'Delivered': {
      const f = e.facts;
      next.evidence_key_id = f.evidence_key_id;
      next.report_sha256 = f.report_sha256;
      next.evidence_sha256 = f.evidence_sha256;
      next.delivery_proof_sha256 = f.delivery_proof_sha256;
      next.delivered_at = f.delivered_at ?? isoTime(e.created);
      next.changed = f.changed.length > 0 ? f.changed : null;
      next.signals_summary = f.signals_summary.some((s) => s !== null) ? f.signals_summary : null;
      next.signals = f.signals.some((s) => s !== null) ? f.signals : null;
      return;
    }
    case 'Held':
    case 'LockStuck':
      next.lock_reason = e.facts.reason;
      return;
    case 'OperatorMoved':
      if (e.facts.target === 'accept_settlement' && e.facts.settlement) setSettlement(next, e.facts.settlement);
      next.lock_reason = null;
      return;
    default: {
      const unhandled: never = e; // a new purchase event type must be placed here
      throw new Error(`report view: unhandled purchase event ${(unhandled as { type: string }).type}`);
    }
  }
}

function setSettlement(
  next: ReportRow,
  s: { network: string; transaction: string; payer: string; amount: string },
): void {
  next.network = s.network;
  next.transaction = s.transaction;
  next.payer = s.payer;
  next.settled_amount_micro = s.amount;
}
