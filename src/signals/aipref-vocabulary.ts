import type { TokenVerdicts } from './observation.js';
import { parseDictionary } from './aipref-field.js';

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
// Drafts -03 and -04 had more labels, still deployed: `bots` (Automated Processing, over every other
// category), `train-genai` (-03, inside train-ai) and `ai-output` (-04, AI outputs including search).
// -07 says unknown labels are ignored; we read them only when they refuse (`n`), and only where the
// token's own label says nothing, as the older drafts' "more specific wins" did. They never allow.

const SECTION = 'draft-ietf-aipref-vocab-07';
const NARROW = 'no permission read';

interface LegacyRefusal {
  label: string;
  rule: string;
}

const LEGACY_TRAIN_GENAI: LegacyRefusal = {
  label: 'train-genai',
  rule: `train-genai=n (Generative AI Training, draft-ietf-aipref-vocab-03; not in -07): read as refusing ai-train`,
};
const LEGACY_AI_OUTPUT: LegacyRefusal = {
  label: 'ai-output',
  rule: 'ai-output=n (AI Output, draft-ietf-aipref-vocab-04: use in an AI system to generate outputs; not in -07)',
};
const LEGACY_BOTS: LegacyRefusal = {
  label: 'bots',
  rule: 'bots=n (Automated Processing, over every category in draft-ietf-aipref-vocab-03/-04; not in -07)',
};

/** The parsed preferences: label → `y` / `n` / undefined (unknown). */
export type Preferences = ReadonlyMap<string, 'y' | 'n'>;

export type PreferenceParse = { ok: true; preferences: Preferences } | { ok: false; reason: string };

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

/** What one statement of preference says about each of our tokens. */
export function verdictsOfPreferences(preferences: Preferences): TokenVerdicts {
  const out: TokenVerdicts = {};
  const trainAi = preferences.get('train-ai');
  if (trainAi === 'n') out['ai-train'] = { verdict: 'reserved', rule: `train-ai=n (${SECTION} §3.1)` };
  else if (trainAi === 'y')
    out['ai-train'] = {
      verdict: 'silent',
      rule: `train-ai=y allows only training of generative models (${SECTION} §3.1), a part of ai-train: ${NARROW}`,
    };
  else {
    const refusal = legacy(preferences, [LEGACY_TRAIN_GENAI, LEGACY_BOTS]);
    if (refusal) out['ai-train'] = { verdict: 'reserved', rule: refusal };
  }

  const search = preferences.get('search');
  if (search === 'n') out.search = { verdict: 'reserved', rule: `search=n (${SECTION} §3.2)` };
  else if (search === 'y') out.search = { verdict: 'allowed', rule: `search=y (${SECTION} §3.2)` };
  else {
    const refusal = legacy(preferences, [LEGACY_AI_OUTPUT, LEGACY_BOTS]);
    if (refusal) out.search = { verdict: 'reserved', rule: refusal };
  }

  const inputRefusal = legacy(preferences, [LEGACY_AI_OUTPUT, LEGACY_BOTS]);
  if (inputRefusal) {
    out['ai-input'] = { verdict: 'reserved', rule: inputRefusal };
    out['ai-index'] = { verdict: 'reserved', rule: inputRefusal };
  }
  return out;
}

/** Why a token the statement leaves alone is silent. */
export const AIPREF_SILENT_RULE = `no preference for this use (${SECTION} has categories train-ai and search only)`;

function legacy(preferences: Preferences, candidates: readonly LegacyRefusal[]): string | undefined {
  return candidates.find((c) => preferences.get(c.label) === 'n')?.rule;
}
