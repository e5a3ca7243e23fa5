import * as t from 'io-ts';
import { Channel, Classification, Decision, Reason } from '@rights-preflight/wire/rsl/vocabulary.js';
import { GatePurpose, UserClass } from '@rights-preflight/wire/rsl/purposes.js';
import { PageEncoding } from './page-encoding.js';
import { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';

// ResourceReading: everything the evidence needs about one resource — what was fetched, what was
// found, how it was read. JSON-safe (strings, numbers, booleans, null; no Dates or bigints) and
// snake_case, because it is embedded verbatim in events and in the signed evidence payload.

export const Observation = t.intersection([
  t.type({
    channel: Channel,
    url: t.string,
    status: t.union([t.number, t.null]),
    /** sha256 of the exact bytes received, lowercase hex; null when nothing was received. */
    sha256: t.union([t.string, t.null]),
    bytes: t.union([t.number, t.null]),
    /** ISO 8601 time of the fetch (of the original fetch when served from cache). */
    fetched_at: t.string,
    content_type: t.union([t.string, t.null]),
    cached: t.boolean,
    error: t.union([t.type({ code: t.string, message: t.string }), t.null]),
    notes: t.array(t.string),
  }),
  // Added later, so optional: delivered evidence without them stays valid (it is re-served byte for byte).
  t.partial({
    /** The HTML page's encoding and how it was chosen (resource channel, when the page was read as HTML). */
    encoding: PageEncoding,
    /** robots.txt longer than the parse limit: only this many first bytes were read and parsed. */
    truncated_at_bytes: t.number,
    /** The validators the response carried (`ETag`, `Last-Modified`), kept for revalidation (docs/wire.md §14). */
    etag: t.string,
    last_modified: t.string,
    /** The publisher answered a conditional request 304: the document is the one it had validated. */
    not_modified: t.literal(true),
  }),
]);

export type Observation = t.TypeOf<typeof Observation>;

export const DocumentRecord = t.type({
  /** Where the document came from (the resource URL + #rsl-script-N for inline scripts). */
  url: t.string,
  channel: Channel,
  sha256: t.union([t.string, t.null]),
  parsed: t.boolean,
  conformant: t.boolean,
  max_age_days: t.union([t.number, t.null]),
  failure: t.union([t.type({ code: t.string, message: t.string }), t.null]),
  problems: t.array(t.type({ severity: t.keyof({ error: null, warning: null }), code: t.string, message: t.string })),
});
export type DocumentRecord = t.TypeOf<typeof DocumentRecord>;

export const TokenReading = t.intersection([
  t.type({
    token: t.keyof({ 'ai-input': null, 'ai-index': null, 'ai-train': null, search: null, crawl: null }),
    classification: Classification,
    decision: Decision,
    obligations: t.array(t.string),
    reasons: t.array(Reason),
  }),
  // Optional, so readings stored before it decode (docs/wire.md, "robots_groups").
  t.partial({
    /**
     * When robots.txt scopes License lines to crawlers' groups: what each crawler reading alone
     * answers (user-agent tokens, `*` for every other crawler). The classification above is the
     * most restrictive of them.
     */
    robots_groups: t.array(t.type({ user_agents: t.array(t.string), classification: Classification })),
  }),
]);
export type TokenReading = t.TypeOf<typeof TokenReading>;

export const PurposeReading = t.type({
  purpose: GatePurpose,
  /** Most restrictive of the token readings (rag-ingestion reads ai-index and ai-input). */
  classification: Classification,
  decision: Decision,
  tokens: t.array(TokenReading),
});
export type PurposeReading = t.TypeOf<typeof PurposeReading>;

export const ResourceReading = t.intersection([
  t.type({
    version: t.literal('rsl-reading-v1'),
    resource: t.string,
    origin: t.string,
    user_class: UserClass,
    geo: t.union([t.string, t.null]),
    freshness_seconds: t.number,
    observed_at: t.string,
    /** Any association at all was seen (robots License line, Link header, HTML link or script). */
    declaration_found: t.boolean,
    /** Every discovery channel (robots.txt, the resource) answered in a way we could read. */
    discovery_complete: t.boolean,
    observations: t.array(Observation),
    documents: t.array(DocumentRecord),
    diagnostics: t.array(t.string),
    purposes: t.array(PurposeReading),
  }),
  // Added with the signals beside RSL, so optional: readings stored before them (in Quoted events, in
  // delivered evidence) decode.
  t.partial({
    /** The other AI-use signals observed (TDMRep, AI preferences, Content Signals, noai); never RSL's. */
    signals: t.array(SignalObservation),
    /** Some text or list a publisher wrote was cut to its cap (bounded-reading.ts; docs/wire.md §16). */
    truncated: t.literal(true),
  }),
]);
export type ResourceReading = t.TypeOf<typeof ResourceReading>;
