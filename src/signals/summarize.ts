import {
  type GatePurpose,
  type InspectPurpose,
  REPORT_PURPOSES,
  tokensForPurpose,
} from '@rights-preflight/wire/rsl/purposes.js';
import type { Classification } from '@rights-preflight/wire/rsl/vocabulary.js';
import type {
  SignalObservation,
  SignalStandard,
  SignalsPreview,
  SignalsSummary,
  SignalToken,
} from '@rights-preflight/wire/signals/signal-observation.js';

// The signals summary for one asked purpose (docs/wire.md §15). Pure. It never changes the RSL
// classification (spec §2.5); it says whether the other standards agree with it.
//
//   NONE_OBSERVED               no observation says anything but `silent` about the purpose's tokens.
//                               Silent-only observations (malformed, unknown, another use, superseded)
//                               do not count: they say nothing about the purpose.
//   RESTRICTED_BY_OTHER_SIGNAL  some observation reserves one of the tokens and RSL does not prohibit
//                               the purpose: RSL permits it, asks for a licence, declares nothing, or is
//                               unknown or in conflict. LICENSE_REQUIRED counts as not prohibiting:
//                               an RSL licence offer does not lift a reservation made elsewhere (another
//                               party may have made it, and a TDM reservation is a reservation against
//                               the copyright exception, not a price), so the buyer is told.
//   CONSISTENT                  observed, and nothing reserves beyond RSL (only allows, or RSL prohibits).
//
// Several statements combine as the aipref vocabulary combines them (draft-ietf-aipref-vocab §7.1):
// a refusal anywhere wins. See docs/decisions.md "Reading other AI-use signals".

/**
 * The tokens whose readings decide a purpose's summary: the purpose's RSL tokens (gate aliases included,
 * `rag-ingestion` → ai-index and ai-input), and for the inspection-only `crawl` ("any automated
 * processing") all four, since a refusal of any use is a refusal of some automated processing.
 */
export function signalTokensForPurpose(purpose: GatePurpose | InspectPurpose): readonly SignalToken[] {
  return tokensForPurpose(purpose).flatMap((t) => (t === 'crawl' ? REPORT_PURPOSES : [t]));
}

const speaks = (o: SignalObservation, tokens: readonly SignalToken[]) =>
  o.readings.some((r) => tokens.includes(r.token) && r.verdict !== 'silent');

const reserves = (o: SignalObservation, tokens: readonly SignalToken[]) =>
  o.readings.some((r) => tokens.includes(r.token) && r.verdict === 'reserved');

export function summarizeSignals(
  observations: readonly SignalObservation[],
  tokens: readonly SignalToken[],
  rslClassification: Classification,
): SignalsSummary {
  if (!observations.some((o) => speaks(o, tokens))) return 'NONE_OBSERVED';
  const reserved = observations.some((o) => reserves(o, tokens));
  return reserved && rslClassification !== 'PROHIBITED_BY_OBSERVED_DECLARATION'
    ? 'RESTRICTED_BY_OTHER_SIGNAL'
    : 'CONSISTENT';
}

/**
 * The free preview on a quote: the standards that said something about the asked purpose (an
 * observation that is silent on it — a malformed header, a tdmrep.json that could not be read — is in
 * the paid report, not here), and whether any of them reserves it. It never implies permission.
 */
export function previewSignals(
  observations: readonly SignalObservation[],
  tokens: readonly SignalToken[],
  rslClassification: Classification,
): SignalsPreview {
  const summary = summarizeSignals(observations, tokens, rslClassification);
  const standards: SignalStandard[] = [];
  for (const o of observations) if (speaks(o, tokens) && !standards.includes(o.standard)) standards.push(o.standard);
  return {
    standards,
    restricts_purpose: observations.some((o) => reserves(o, tokens)),
    summary,
  };
}
