import type { ParseResult } from './parse/model.js';
import type { DocumentRecord, Observation } from './reading.js';
import type { FetchResult } from './safe-fetch.js';
import type { Channel } from '@rights-preflight/wire/rsl/vocabulary.js';

// The records discovery (./discovery.ts) keeps of what it fetched and parsed, in the reading's shapes.

/** What one fetch was, as the reading's evidence shows it (ETag and Last-Modified kept for a revalidation). */
export function fetchObservation(channel: Channel, result: FetchResult, cached: boolean): Observation {
  if (!result.ok) {
    return {
      channel,
      url: result.url,
      status: result.status,
      sha256: null,
      bytes: null,
      fetched_at: result.fetchedAt,
      content_type: null,
      cached,
      error: { code: result.code, message: result.message },
      notes: [],
    };
  }
  return {
    channel,
    url: result.url,
    status: result.status,
    sha256: result.sha256,
    bytes: result.body.length,
    fetched_at: result.fetchedAt,
    content_type: result.headers['content-type'] ?? null,
    cached,
    error: null,
    notes: [],
    ...(result.truncated ? { truncated_at_bytes: result.body.length } : {}),
    ...(result.headers.etag !== undefined ? { etag: result.headers.etag } : {}),
    ...(result.headers['last-modified'] !== undefined ? { last_modified: result.headers['last-modified'] } : {}),
    ...(result.notModified ? { not_modified: true as const } : {}),
  };
}

/** What one RSL document was: where it was found, its digest, and what parsing it gave. */
export function documentRecord(
  url: string,
  channel: Channel,
  sha256: string | null,
  parse: ParseResult | null,
  failure: { code: string; message: string } | null,
): DocumentRecord {
  const parseFailure = parse && !parse.ok ? { code: parse.code, message: parse.message } : null;
  return {
    url,
    channel,
    sha256,
    parsed: parse?.ok ?? false,
    conformant: parse?.ok ? parse.conformant : false,
    max_age_days: parse?.ok ? parse.document.maxAgeDays : null,
    failure: failure ?? parseFailure,
    problems: (parse?.problems ?? []).map((p) => ({ severity: p.severity, code: p.code, message: p.message })),
  };
}
