import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { ExpectedRevision, RecordedEvent } from '../store/port.js';
import type { PaidReportResponse } from '../http/wire/report.js';
import type { DecisionPreview } from '../http/wire/quote.js';
import type { ResourceReading } from '../rsl/reading.js';
import type { ReportPurpose, UserClass } from '../rsl/purposes.js';
import type { Tier } from '../pricing/prices.js';
import type { MoneyPathDeps, SignedEnvelope, Hex } from './deps.js';
import { decideToAppend, evolve, initialState, streamName, PurchaseRefused, type PurchaseCommand, type PurchaseState, type SealedPayment } from '../../streams/purchase/index.js';
import { refusalAnswer } from './refusal-answers.js';

// The money path's typed view of one purchase stream: load (read + fold with the stream's `evolve`)
// and execute (the stream's `decide`, appended at the revision the decision was made on).

export interface QuotedView {
  purchase_id: string;
  sku: string;
  input: { sku: string; resource: string; purpose: ReportPurpose; tier: Tier; user_class: UserClass };
  input_sha256: string;
  max_total_micro: string;
  price_micro: string;
  decision_preview: DecisionPreview;
  signed_quote: SignedEnvelope;
  expires_at: string;
  claim_sha256: string;
  reading: ResourceReading;
  /** Key-bound flows with a sign-in proof (ingestion gate): the one address allowed to pay. */
  payer?: Hex;
}
export interface OfferedView {
  requirements: PaymentRequirements;
  payment_required: PaymentRequired;
  nonce: Hex;
  offer_receipt: SignedEnvelope;
  expires_at: string;
}
export interface CheckpointView {
  sealed_payment: SealedPayment; // AES-256-GCM of the exact PaymentPayload JSON (sealed box, or legacy compact)
  payment_sha256: string;
  payer: Hex;
  nonce: Hex;
  amount: string;
  valid_before: string;
  /** When the authorization was checkpointed. */
  at: string;
  /** Chain block read before verification; recovery's log search starts here (absent in older streams). */
  from_block?: string;
}
export interface SettledView { network: string; transaction: Hex; payer: Hex; amount: string; block: string | null }
export interface DeliveredView { response: PaidReportResponse; payment_response: SettleResponse }

export interface Loaded {
  revision: ExpectedRevision;
  state: PurchaseState | undefined;
  status: PurchaseState['status'] | 'none';
  quoted?: QuotedView;
  offered?: OfferedView;
  checkpoint?: CheckpointView;
  submissions: number;
  settled?: SettledView;
  delivered?: DeliveredView;
  held?: { reason: string; details: Record<string, unknown> };
  stuck?: { reason: string; details: Record<string, unknown> };
}

export type { PaymentPayload };

function view(state: PurchaseState | undefined, revision: ExpectedRevision): Loaded {
  if (!state) return { revision, state, status: 'none', submissions: 0 };
  return {
    revision,
    state,
    status: state.status,
    quoted: state.quoted as QuotedView | undefined,
    offered: state.offered as OfferedView | undefined,
    checkpoint: state.checkpoint as CheckpointView | undefined,
    submissions: state.submissions ?? 0,
    settled: state.settled as SettledView | undefined,
    delivered: state.delivered as DeliveredView | undefined,
    held: state.held as Loaded['held'],
    stuck: state.stuck as Loaded['stuck'],
  };
}

export function fold(events: RecordedEvent[]): Loaded {
  if (events.length === 0) return view(undefined, 'no_stream');
  const state = events.reduce((s, e) => evolve(s, e), initialState);
  return view(state, events[events.length - 1]!.revision);
}

export async function loadPurchase(store: MoneyPathDeps['store'], id: string): Promise<Loaded> {
  return fold(await store.readStream(streamName(id)));
}

/** decide → append at the loaded revision (WrongExpectedRevision propagates: the caller re-reads). */
export async function execute(deps: Pick<MoneyPathDeps, 'store' | 'now'>, id: string, loaded: Pick<Loaded, 'state' | 'revision'>, command: PurchaseCommand): Promise<Loaded> {
  let events;
  try {
    events = decideToAppend(command, loaded.state ?? initialState, deps.now());
  } catch (err) {
    // A refusal becomes its HTTP answer (one table: refusal-answers.ts); internal invariants stay 500.
    if (err instanceof PurchaseRefused) throw refusalAnswer(err);
    throw err;
  }
  await deps.store.append(streamName(id), events, loaded.revision);
  return loadPurchase(deps.store, id);
}
