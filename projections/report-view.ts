import { createHash } from 'node:crypto';
import { canonicalJson } from '../src/evidence/canonical-json.js';
import type { RecordedEvent } from '../src/store/port.js';
import type { Projection } from './runner.js';

// Read model: purchase id → status, classification preview, amounts, settlement and delivery digests.
// Pure over the purchase events; rebuildable with the runner. The recovery worker reads its
// `checkpointed`, `settlement_submitted` and `settled` rows as candidates to resume.

export type ReportStatus = 'quoted' | 'offered' | 'checkpointed' | 'settlement_submitted' | 'settled' | 'delivered' | 'held' | 'lock_stuck';

export interface ReportRow {
  purchase_id: string;
  status: ReportStatus;
  sku: string;
  resource: string;
  purpose: string;
  classification: string;
  decision: string;
  price_micro: string;
  expires_at: string;
  payer: string | null;
  settled_amount_micro: string | null;
  transaction: string | null;
  report_sha256: string | null;
  evidence_sha256: string | null;
  delivery_proof_sha256: string | null;
  submissions: number;
  updated_position: string;
}

export type ReportView = Record<string, ReportRow>;

const PREFIX = 'purchase-';
const digest = (v: unknown) => createHash('sha256').update(canonicalJson(v), 'utf8').digest('hex');
type D = Record<string, any>;

export function applyReportEvent(view: ReportView, event: RecordedEvent): ReportView {
  if (!event.stream.startsWith(PREFIX)) return view;
  const id = event.stream.slice(PREFIX.length);
  const d = (event.data ?? {}) as D;
  const row = view[id];
  const at = event.position.toString();
  const put = (r: ReportRow) => ({ ...view, [id]: { ...r, updated_position: at } });
  if (event.type === 'Quoted') {
    return put({
      purchase_id: id,
      status: 'quoted',
      sku: d.sku,
      resource: d.input?.resource,
      purpose: d.input?.purpose,
      classification: d.decision_preview?.classification,
      decision: d.decision_preview?.decision,
      price_micro: d.price_micro,
      expires_at: d.expires_at,
      payer: null,
      settled_amount_micro: null,
      transaction: null,
      report_sha256: null,
      evidence_sha256: null,
      delivery_proof_sha256: null,
      submissions: 0,
      updated_position: at,
    });
  }
  if (!row) return view; // events of a stream whose Quoted was never seen cannot be placed
  switch (event.type) {
    case 'Offered': return put({ ...row, status: row.status === 'quoted' ? 'offered' : row.status });
    case 'AuthorizationCheckpointed': return put({ ...row, status: 'checkpointed', payer: d.payer ?? null });
    case 'SettlementSubmitted': return put({ ...row, status: 'settlement_submitted', submissions: row.submissions + 1, transaction: d.transaction ?? row.transaction });
    case 'Settled': return put({ ...row, status: 'settled', settled_amount_micro: d.amount, transaction: d.transaction, payer: d.payer });
    case 'Delivered': {
      const r = d.response ?? {};
      return put({
        ...row,
        status: 'delivered',
        report_sha256: r.report ? digest(r.report) : null,
        evidence_sha256: r.evidence ? digest(r.evidence) : null,
        delivery_proof_sha256: r.delivery_proof ? digest(r.delivery_proof) : null,
      });
    }
    case 'Held': return put({ ...row, status: 'held' });
    case 'LockStuck': return put({ ...row, status: 'lock_stuck' });
    default: return view;
  }
}

export const reportViewProjection: Projection<ReportView> = {
  name: 'report-view',
  version: 1,
  initial: {},
  apply: applyReportEvent,
};

/** Purchases the recovery worker must look at: paid for (checkpointed) but not yet delivered or parked. */
export const resumeCandidates = (view: ReportView): string[] =>
  Object.values(view).filter((r) => r.status === 'checkpointed' || r.status === 'settlement_submitted' || r.status === 'settled').map((r) => r.purchase_id);
