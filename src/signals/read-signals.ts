import type { SignalObservation } from '../../packages/buyer/src/wire/signals/signal-observation.js';
import type { SignalSources } from './signal-sources.js';

// Every AI-use signal observed on the fetches discovery made (issue 28). Pure and synchronous;
// never throws: a malformed statement is an observation whose readings are `silent` with a reason.
// STUB: filled in by the signal parsers (tdmrep, aipref, content-signals, noai).
export function readSignals(_sources: SignalSources): SignalObservation[] {
  return [];
}
