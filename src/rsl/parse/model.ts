// The typed RSL document model produced by parse.ts and read by evaluate.ts. Plain data, JSON-safe,
// so a parsed document can be logged or embedded without conversion.

export const RSL_NAMESPACE = 'https://rslstandard.org/rsl';

export type TermAxis = 'usage' | 'user' | 'geo';

/** Token lists per axis; an axis that is absent was not stated (no closure on it). */
export type TokenSets = Partial<Record<TermAxis, string[]>>;

export interface Payment {
  /** The `type` attribute as written, or null when absent. */
  type: string | null;
  standard: string | null;
  custom: string | null;
  amount: { value: string; currency: string | null } | null;
  accepts: { type: string | null; body: string } | null;
}

export interface Reporting {
  type: string | null;
  profile: string | null;
  endpoint: string | null;
}

export interface License {
  /** Position among the licenses of its content (0-based), for reasons. */
  index: number;
  permits: TokenSets;
  prohibits: TokenSets;
  payment: Payment | null;
  reporting: Reporting[];
  legal: Array<{ type: string | null; value: string }>;
}

export interface Content {
  /** Position among the contents of the document (0-based), for reasons. */
  index: number;
  /** The `url` attribute as written; null when missing (then the content governs nothing). */
  url: string | null;
  server: string | null;
  encrypted: boolean;
  lastmod: string | null;
  licenses: License[];
  terms: string | null;
  copyright: string | null;
  alternates: string[];
  schema: string | null;
}

export interface RslDocument {
  /** `rsl` for a standalone document, `rss` for a feed carrying `rsl:content` per item. */
  root: 'rsl' | 'rss';
  /** `max-age` in days when valid; null means the default (30 days). */
  maxAgeDays: number | null;
  contents: Content[];
}

export type ProblemSeverity = 'error' | 'warning';

/** A conformance finding. Any `error` makes the document non-conformant. */
export interface Problem {
  severity: ProblemSeverity;
  code: string;
  message: string;
  line?: number;
}

export type ParseFailureCode =
  | 'DOCUMENT_TOO_LARGE'
  | 'DOCTYPE_REFUSED'
  | 'XML_MALFORMED'
  | 'XML_NODE_TOO_LARGE'
  | 'XML_TOO_DEEP'
  | 'XML_TOO_MANY_ELEMENTS'
  | 'XML_TOO_MANY_ATTRIBUTES'
  | 'PARSE_TIME_LIMIT'
  | 'UNSUPPORTED_ENCODING'
  | 'NOT_RSL'
  | 'WRONG_NAMESPACE';

export type ParseResult =
  | { ok: true; document: RslDocument; conformant: boolean; problems: Problem[] }
  | { ok: false; code: ParseFailureCode; message: string; problems: Problem[] };
