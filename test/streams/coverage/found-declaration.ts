import type { ReviewObservation } from '../../../streams/coverage/index.js';

/**
 * A review's observation of `origin` at `at` (ISO): its declaration found and discovery complete, with no
 * channel, license, purpose, signal or diagnostic to report — the plainest review the ledger accepts.
 */
export const foundDeclaration = (origin: string, at: string): ReviewObservation => ({
  resource: `${origin}/`,
  observed_at: at,
  declaration_found: true,
  discovery_complete: true,
  channels: [],
  license_documents: [],
  purposes: [],
  signals: [],
  diagnostics: [],
});
