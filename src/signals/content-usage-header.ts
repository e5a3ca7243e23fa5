import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { AIPREF_SILENT_RULE, parsePreferences, verdictsOfPreferences } from './aipref-vocabulary.js';
import { observation, sha256OfText, silentObservation } from './observation.js';
import type { SignalSources } from './signal-sources.js';

// The `Content-Usage` HTTP response field (draft-ietf-aipref-attach-05 §2): a structured-field
// Dictionary that follows the vocabulary (aipref-vocabulary.ts). A repeated field arrives joined with
// ", ", which is how RFC 9651 §4.2 combines field lines before parsing. Pure.

export function readContentUsageHeader(page: NonNullable<SignalSources['page']>): SignalObservation[] {
  const value = page.headers['content-usage'];
  if (value === undefined) return [];
  const statement = `content-usage: ${value}`;
  const source = {
    standard: 'aipref',
    channel: 'header',
    url: page.url,
    sha256: sha256OfText(value),
    statement,
  } as const;
  const parsed = parsePreferences(value);
  if (!parsed.ok) return [silentObservation(source, `preferences unknown, ${parsed.reason} (vocab §6.5.1)`)];
  return [observation(source, verdictsOfPreferences(parsed.preferences), AIPREF_SILENT_RULE)];
}
