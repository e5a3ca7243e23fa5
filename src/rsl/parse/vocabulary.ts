// The RSL 1.0 vocabulary the parser checks documents against (rsl.md §1.3, §4): tokens that are read
// as written, labels seen in the wild that are only warned about, and where each element may appear.

export const USAGE_TOKENS = new Set(['all', 'ai-all', 'ai-train', 'ai-input', 'ai-index', 'search']);
/** Pre-1.0 / non-RSL labels seen in the wild; evaluate/license.ts lets them prohibit, never permit. */
export const LEGACY_USAGE_ALIASES: Readonly<Record<string, string>> = {
  'train-ai': 'ai-train',
  'train-genai': 'ai-train',
  'ai-use': 'ai-input',
};
export const USER_TOKENS = new Set(['commercial', 'non-commercial', 'education', 'government', 'personal']);
export const PAYMENT_TYPES = new Set([
  'purchase',
  'subscription',
  'training',
  'crawl',
  'use',
  'contribution',
  'attribution',
  'free',
]);
export const LEGACY_PAYMENT_TYPES = new Set(['inference', 'royalty']);
export const REPORTING_TYPES = new Set(['telemetry', 'provenance', 'audit']);
export const LEGAL_TYPES = new Set(['warranty', 'disclaimer', 'attestation', 'contact', 'proof']);

/** Which RSL elements may appear under which RSL parent. `#feed` is a non-RSL RSS ancestor. */
export const CHILDREN: Readonly<Record<string, readonly string[]>> = {
  '#feed': ['content', 'rsl'],
  rsl: ['content'],
  content: ['license', 'alternate', 'schema', 'copyright', 'terms'],
  license: ['permits', 'prohibits', 'payment', 'reporting', 'legal'],
  payment: ['standard', 'custom', 'amount', 'accepts'],
};
export const KNOWN_ELEMENTS = new Set([
  'rsl',
  'content',
  'license',
  'permits',
  'prohibits',
  'payment',
  'standard',
  'custom',
  'amount',
  'accepts',
  'reporting',
  'legal',
  'alternate',
  'schema',
  'copyright',
  'terms',
]);
