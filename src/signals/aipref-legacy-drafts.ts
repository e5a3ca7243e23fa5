import type { SignalToken } from '@rights-preflight/wire/signals/signal-observation.js';
import type { Preferences } from './aipref-field.js';

// The vocabularies of the earlier aipref drafts, each read as a reader of that draft would read a
// statement (docs/reference/aipref.md, "Earlier drafts"). Pure.
//
// Each draft arranges its labels as categories inside wider ones, and says "A preference that is
// expressed for the more general category applies if no preference is expressed for the more specific
// category" (vocab-01 §3; -02 to -04 the same).
// For one of our tokens a draft's reading is:
//   - a refusal of a category inside the token (vocab-01 `genai` inside AI Training): the token is
//     refused in part, so reserved for a buyer who cannot show their use is outside it;
//   - else the first label present on the way from the token's own category outwards decides:
//     `n` reserves, `y` stops the walk (an earlier draft's permission is never read as one).
// A reading names its draft and a reason code (AIPREF_VOCAB_0N), so a report says which vocabulary
// decided. Where one draft's own texts disagree, the more restrictive is taken and said (vocab-01:
// its registry puts Search inside TDM, its §5.1 says no statement restricts search).

interface Category {
  label: string;
  title: string;
}

interface TokenPath {
  /** Categories inside the token: a refusal of any refuses part of the token. */
  inside: readonly Category[];
  /** The token's own category, then the wider ones, nearest first: the first present decides. */
  outward: readonly Category[];
  /** Said when a wider category's refusal decided, where the draft's texts disagree about it. */
  widerNote?: string;
}

interface DraftVocabulary {
  draft: string;
  code: string;
  tokens: Partial<Record<SignalToken, TokenPath>>;
}

const c = (label: string, title: string): Category => ({ label, title });

const V01_TDM = c('tdm', 'Text and Data Mining');
const V01_INFERENCE = c('inference', 'AI Inference');
const V02_ALL = c('all', 'Automated Processing');
const V02_AI_USE = c('ai-use', 'AI Use');
const BOTS = c('bots', 'Automated Processing');
const TRAIN_AI = c('train-ai', 'AI Training');
const TRAIN_GENAI = c('train-genai', 'Generative AI Training');
const SEARCH = c('search', 'Search');
const V04_AI_OUTPUT = c('ai-output', 'AI Output');

/** Newest first: where several drafts refuse, the nearest to -07 is named. */
const LEGACY_DRAFTS: readonly DraftVocabulary[] = [
  {
    draft: 'draft-ietf-aipref-vocab-04',
    code: 'AIPREF_VOCAB_04',
    tokens: {
      'ai-train': { inside: [], outward: [c('train-ai', 'Foundation Model Production'), BOTS] },
      search: { inside: [], outward: [SEARCH, V04_AI_OUTPUT, BOTS] },
      'ai-input': { inside: [], outward: [V04_AI_OUTPUT, BOTS] },
      'ai-index': { inside: [], outward: [V04_AI_OUTPUT, BOTS] },
    },
  },
  {
    draft: 'draft-ietf-aipref-vocab-03',
    code: 'AIPREF_VOCAB_03',
    tokens: {
      'ai-train': { inside: [TRAIN_GENAI], outward: [TRAIN_AI, BOTS] },
      search: { inside: [], outward: [SEARCH, BOTS] },
      'ai-input': { inside: [], outward: [BOTS] },
      'ai-index': { inside: [], outward: [BOTS] },
    },
  },
  {
    draft: 'draft-ietf-aipref-vocab-02',
    code: 'AIPREF_VOCAB_02',
    tokens: {
      'ai-train': { inside: [TRAIN_GENAI], outward: [TRAIN_AI, V02_ALL] },
      search: { inside: [], outward: [SEARCH, V02_ALL] },
      'ai-input': { inside: [], outward: [V02_AI_USE, V02_ALL] },
      'ai-index': { inside: [], outward: [V02_AI_USE, V02_ALL] },
    },
  },
  {
    draft: 'draft-ietf-aipref-vocab-01',
    code: 'AIPREF_VOCAB_01',
    tokens: {
      'ai-train': { inside: [c('genai', 'Generative AI Training')], outward: [c('ai', 'AI Training'), V01_TDM] },
      search: {
        inside: [],
        outward: [SEARCH, V01_TDM],
        widerNote:
          'its registry lists Search as a subset of tdm, its §5.1 says no statement restricts search: the registry, ' +
          'the more restrictive, is read',
      },
      'ai-input': { inside: [], outward: [V01_INFERENCE, V01_TDM] },
      'ai-index': { inside: [], outward: [V01_INFERENCE, V01_TDM] },
    },
  },
];

/** Every token some earlier draft's reading refuses, with the rule naming that draft (the newest that refuses). */
export function legacyDraftRefusals(preferences: Preferences): Map<SignalToken, string> {
  const out = new Map<SignalToken, string>();
  for (const draft of LEGACY_DRAFTS) {
    for (const [token, path] of Object.entries(draft.tokens) as [SignalToken, TokenPath][]) {
      if (out.has(token)) continue;
      const rule = refusal(draft, token, path, preferences);
      if (rule) out.set(token, rule);
    }
  }
  return out;
}

function refusal(draft: DraftVocabulary, token: SignalToken, path: TokenPath, prefs: Preferences): string | null {
  const named = (cat: Category) => `${cat.label}=n (${cat.title}, ${draft.draft})`;
  const part = path.inside.find((cat) => prefs.get(cat.label) === 'n');
  if (part) return `${draft.code}: ${named(part)} refuses a part of ${token}`;
  for (const [i, cat] of path.outward.entries()) {
    const value = prefs.get(cat.label);
    if (value === 'y') return null;
    if (value !== 'n') continue;
    if (i === 0) return `${draft.code}: ${named(cat)} refuses ${token}`;
    const note = path.widerNote ? `; ${path.widerNote}` : '';
    return `${draft.code}: ${named(cat)}, a category holding ${token}'s, refuses it${note}`;
  }
  return null;
}
