import type { TokenVerdicts } from './observation.js';
import { type Preferences, parseDictionary } from './aipref-field.js';
import { legacyDraftRefusals } from './aipref-legacy-drafts.js';

// A statement of AI usage preferences (draft-ietf-aipref-vocab-07, the editor's copy of 2026-08-19
// that -08 follows) read for our usage tokens. Pure.
//
// The vocabulary has two categories, `train-ai` (AI Model Training, §3.1) and `search` (§3.2), with
// Token values `y` / `n` (§6.2); anything else for a label, an absent label, or a dictionary that
// does not parse is "unknown" (§6.5) — here `silent`. Our mapping, conservative in one direction:
// a refusal is read broadly, a permission narrowly (docs/reference/aipref.md):
//
//   train-ai=n  → ai-train reserved   (refusing generative-model training refuses part of ai-train)
//   train-ai=y  → ai-train silent     (it allows generative-model training only, a part of ai-train)
//   search=n    → search reserved     (the same use as RSL's `search`)
//   search=y    → search allowed
//
// Labels of earlier drafts are still deployed (attach-00/-01's own examples say `ai=n`, vocab-01's
// label for AI Training). -07 says unknown labels are ignored; a reader that follows the draft the
// publisher wrote to reads them. Every draft's vocabulary is read as its own reader would
// (aipref-legacy-drafts.ts): a draft reading that refuses a token reserves it, whatever -07 says, and
// names the draft whose vocabulary it used; an earlier draft's `y` never allows (-07 decides that).

const SECTION = 'draft-ietf-aipref-vocab-07';
const NARROW = 'no permission read';

export type { Preferences };

type PreferenceParse = { ok: true; preferences: Preferences } | { ok: false; reason: string };

/** Parse a statement of preference (vocab §6.5): a Dictionary whose Token `y` / `n` values count. */
export function parsePreferences(statement: string): PreferenceParse {
  const dict = parseDictionary(statement);
  if (!dict.ok) return { ok: false, reason: `not a structured-field Dictionary: ${dict.reason}` };
  const preferences = new Map<string, 'y' | 'n'>();
  for (const [label, value] of dict.members) {
    if (value.kind === 'token' && (value.value === 'y' || value.value === 'n')) preferences.set(label, value.value);
  }
  return { ok: true, preferences };
}

/** What one statement of preference says about each of our tokens: -07's reading, then every earlier
 *  draft's refusal (the most restrictive of the readings; the rule names the draft that decided). */
export function verdictsOfPreferences(preferences: Preferences): TokenVerdicts {
  const out = verdictsOfCurrentDraft(preferences);
  for (const [token, rule] of legacyDraftRefusals(preferences)) {
    if (out[token]?.verdict !== 'reserved') out[token] = { verdict: 'reserved', rule };
  }
  return out;
}

/** The reading of -07 alone: `train-ai` and `search`. */
function verdictsOfCurrentDraft(preferences: Preferences): TokenVerdicts {
  const out: TokenVerdicts = {};
  const trainAi = preferences.get('train-ai');
  if (trainAi === 'n') out['ai-train'] = { verdict: 'reserved', rule: `train-ai=n (${SECTION} §3.1)` };
  else if (trainAi === 'y')
    out['ai-train'] = {
      verdict: 'silent',
      rule: `train-ai=y allows only training of generative models (${SECTION} §3.1), a part of ai-train: ${NARROW}`,
    };
  const search = preferences.get('search');
  if (search === 'n') out.search = { verdict: 'reserved', rule: `search=n (${SECTION} §3.2)` };
  else if (search === 'y') out.search = { verdict: 'allowed', rule: `search=y (${SECTION} §3.2)` };
  return out;
}

/** Why a token the statement leaves alone is silent. */
export const AIPREF_SILENT_RULE = `no preference for this use (${SECTION} has categories train-ai and search only)`;
