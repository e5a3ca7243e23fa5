import * as t from 'io-ts';

// Purposes (spec §2.1) and the question context. One module so the quote, preflight, gate and
// inspection routes all agree on the vocabulary and on how gate aliases map to RSL usage tokens.

/** The RSL usage tokens a paid report answers for (quote, preflight). */
export const ReportPurpose = t.keyof({ 'ai-input': null, 'ai-index': null, 'ai-train': null, search: null });
export type ReportPurpose = t.TypeOf<typeof ReportPurpose>;
export const REPORT_PURPOSES: readonly ReportPurpose[] = ['ai-input', 'ai-index', 'ai-train', 'search'];

/** Ingestion gate: the four tokens plus workflow aliases. */
export const GatePurpose = t.keyof({
  'ai-input': null,
  'ai-index': null,
  'ai-train': null,
  search: null,
  'rag-ingestion': null,
  summarization: null,
  training: null,
  'search-indexing': null,
});
export type GatePurpose = t.TypeOf<typeof GatePurpose>;
/** The gate's purposes as capabilities lists them (the gate's and revalidation's entries). */
export const GATE_PURPOSES: readonly GatePurpose[] = [
  'ai-input',
  'ai-train',
  'ai-index',
  'search',
  'rag-ingestion',
  'summarization',
  'training',
  'search-indexing',
];

/** Free inspection only: the four tokens plus the legacy `crawl`. */
export const InspectPurpose = t.keyof({
  'ai-input': null,
  'ai-index': null,
  'ai-train': null,
  search: null,
  crawl: null,
});
export type InspectPurpose = t.TypeOf<typeof InspectPurpose>;

/**
 * What the evaluator is asked about. `crawl` is not an RSL usage token: it is read only through
 * the `all` umbrella ("any automated processing"), see evaluate.ts.
 */
export type EvaluatedToken = ReportPurpose | 'crawl';

/**
 * Gate aliases (spec §1.6: RAG is a workflow, each step evaluated separately):
 *   rag-ingestion   -> ai-index AND ai-input (both reported; combined = the more restrictive)
 *   summarization   -> ai-input  (summaries are model input / generative output)
 *   training        -> ai-train
 *   search-indexing -> search
 */
export const PURPOSE_TOKENS: Readonly<Record<GatePurpose | 'crawl', readonly EvaluatedToken[]>> = {
  'ai-input': ['ai-input'],
  'ai-index': ['ai-index'],
  'ai-train': ['ai-train'],
  search: ['search'],
  'rag-ingestion': ['ai-index', 'ai-input'],
  summarization: ['ai-input'],
  training: ['ai-train'],
  'search-indexing': ['search'],
  crawl: ['crawl'],
};

export const tokensForPurpose = (purpose: GatePurpose | InspectPurpose): readonly EvaluatedToken[] =>
  PURPOSE_TOKENS[purpose];

export const UserClass = t.keyof({
  commercial: null,
  'non-commercial': null,
  education: null,
  government: null,
  personal: null,
});
export type UserClass = t.TypeOf<typeof UserClass>;
export const DEFAULT_USER_CLASS: UserClass = 'commercial';

interface GeoBrand {
  readonly Geo: unique symbol;
}
/** Caller-supplied ISO 3166-1 alpha-2 code (spec §2.3: not a verified location). */
const GEO = /^[A-Z]{2}$/;
// `pattern` on the codec: the published JSON Schema states the same rule (packages/wire/src/contract/json-schema.ts).
export const Geo = Object.assign(
  t.brand(t.string, (s): s is t.Branded<string, GeoBrand> => GEO.test(s), 'Geo'),
  { pattern: GEO },
);
export type Geo = t.TypeOf<typeof Geo>;
export const NullableGeo = t.union([Geo, t.null]);

export interface Question {
  /** Canonical resource URL (already checked by the §2.2 rule). */
  resource: string;
  token: EvaluatedToken;
  userClass: UserClass;
  geo: string | null;
}
