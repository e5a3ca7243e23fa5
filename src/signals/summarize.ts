import type { Classification } from '../../packages/buyer/src/wire/rsl/vocabulary.js';
import type {
  SignalObservation,
  SignalsPreview,
  SignalsSummary,
  SignalToken,
} from '../../packages/buyer/src/wire/signals/signal-observation.js';

// The summary for one asked purpose (issue 28). STUB: filled in with the signal parsers.
export function summarizeSignals(
  _observations: readonly SignalObservation[],
  _tokens: readonly SignalToken[],
  _rslClassification: Classification,
): SignalsSummary {
  return 'NONE_OBSERVED';
}

export function previewSignals(
  observations: readonly SignalObservation[],
  tokens: readonly SignalToken[],
  rslClassification: Classification,
): SignalsPreview {
  const summary = summarizeSignals(observations, tokens, rslClassification);
  return {
    standards: [...new Set(observations.map((o) => o.standard))],
    restricts_purpose: summary === 'RESTRICTED_BY_OTHER_SIGNAL',
    summary,
  };
}
