import * as t from 'io-ts';
import { SignalObservation, SignalsPreview, SignalsSummary } from '../signals/signal-observation.js';

// What a report resource and a quote say of the AI-use signals beside RSL (docs/wire.md §15). Optional: reports and
// quotes made before the signals beside RSL were read carry none, and a delivered report is kept byte for byte.

/** Each report resource (single report, gate, revalidation): the observations and their summary for the purpose. */
export const ReportResourceSignals = t.partial({
  signals: t.array(SignalObservation),
  signals_summary: SignalsSummary,
  /** Some text or list the publisher wrote was cut to its cap (a cut text ends in "…"; docs/wire.md §16). */
  truncated: t.literal(true),
});
export type ReportResourceSignals = t.TypeOf<typeof ReportResourceSignals>;

/** A quote, available or not: which standards were observed and whether they restrict the purpose. Free. */
export const QuoteSignalsPreview = t.partial({ signals_preview: SignalsPreview });
