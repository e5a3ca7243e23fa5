import * as t from 'io-ts';
import type { Classification } from '@rights-preflight/wire/contract/common.js';
import type { GatePurpose } from '@rights-preflight/wire/rsl/purposes.js';
import {
  SignalObservation,
  type SignalsPreview,
  type SignalsSummary,
} from '@rights-preflight/wire/signals/signal-observation.js';
import { previewSignals, signalTokensForPurpose as signalTokens, summarizeSignals } from '../signals/summarize.js';

// The other AI-use signals of one report resource (docs/wire.md §15): the observations the stored reading holds, and
// their summary for the asked purpose beside the RSL classification, which they never change. Read from the stored
// reading with `is`, as report-reading.ts reads it: a reading stored before the signals beside RSL were read has no
// `signals`, and its report, evidence and quote carry none (absent, not "none observed": nobody looked). Shared by
// every SKU's drafter and the single report's quote.

const StoredSignals = t.type({ signals: t.array(SignalObservation) });

interface ReportSignals {
  signals: SignalObservation[];
  signals_summary: SignalsSummary;
  /** The stored reading was cut to its caps (src/rsl/bounded-reading.ts; docs/wire.md §16). */
  truncated?: true;
}

/** `signals` and `signals_summary` of a report resource (and `truncated` when the reading was cut to its
 *  caps), or nothing for a reading stored before them. */
export function reportSignals(
  stored: unknown,
  purpose: GatePurpose,
  classification: Classification,
): ReportSignals | Record<string, never> {
  if (!StoredSignals.is(stored)) return {};
  const { signals } = stored;
  const truncated = (stored as { truncated?: unknown }).truncated === true ? { truncated: true as const } : {};
  return { signals, signals_summary: summarizeSignals(signals, signalTokens(purpose), classification), ...truncated };
}

/** The summary alone, as the signed evidence states it per resource beside the classification. */
export function evidenceSignalsSummary(
  stored: unknown,
  purpose: GatePurpose,
  classification: Classification,
): { signals_summary: SignalsSummary } | Record<string, never> {
  const s = reportSignals(stored, purpose, classification);
  return 'signals_summary' in s ? { signals_summary: s.signals_summary } : {};
}

/** A quote's free `signals_preview`, or nothing for a reading stored before the signals beside RSL were read. */
export function quoteSignalsPreview(
  stored: unknown,
  purpose: GatePurpose,
  classification: Classification,
): { signals_preview: SignalsPreview } | Record<string, never> {
  if (!StoredSignals.is(stored)) return {};
  return { signals_preview: previewSignals(stored.signals, signalTokens(purpose), classification) };
}
