import type { AvailableQuote, UnavailableQuote } from '@rights-preflight/wire/contract/quote.js';
import type { GateQuestion } from '@rights-preflight/wire/ingestion-gate/gate-input.js';
import type { SavedReport } from './verify-report.js';
import type { IngestionHold } from './report-signals.js';
import type { SignalsPreview } from '@rights-preflight/wire/signals/signal-observation.js';

// What a purchase ends as: delivered (a verified report), unavailable (nothing to buy, nothing charged)
// or held (paid, never a report).

export type BuyResult =
  | {
      status: 'unavailable';
      reason: string;
      resource: string;
      charge_micro: '0';
      /** The free preview of the AI-use signals beside RSL (docs/wire.md §15); absent from services before it. */
      signals_preview?: SignalsPreview;
    }
  | {
      status: 'delivered';
      purchase_id: string;
      response: Record<string, unknown> & {
        report: { resources: { resource: string; classification: string; decision: string }[] };
      };
      classifications: { resource: string; classification: string; decision: string }[];
      /** Set when ingestion is held because another standard beside RSL restricts the purpose (docs/wire.md §15);
       *  null is no permission, only that nothing beside RSL asks to hold (BuyerOptions.holdOnOtherSignals). */
      ingestion_hold: IngestionHold | null;
      transaction: string;
      amount_micro: string;
      payer: string;
      /** What to save for offline `verify` (no secrets). */
      saved: SavedReport;
      resumed: boolean;
    }
  | { status: 'held'; reason: string; purchase_id: string; transaction?: string };

export type Quote = AvailableQuote | UnavailableQuote;

/** An ingestion-gate question (spec §2.3); resources in their canonical spelling, 1–4 of them. */
export type GateRequest = GateQuestion;
export type GateResult =
  | {
      status: 'unavailable';
      reason: 'NO_VERIFIABLE_DECLARATION' | 'FETCH_FAILED';
      resources: string[];
      input_sha256: string;
      charge_micro: '0';
    }
  | Exclude<BuyResult, { status: 'unavailable' }>;
