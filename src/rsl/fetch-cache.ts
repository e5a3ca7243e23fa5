import type { FetchFailure, FetchOptions, FetchResponse, FetchResult, Fetcher } from './safe-fetch.js';

// Per-origin response cache in front of the safe fetcher. A cached response is reused only when
// it is younger than BOTH the caller's `freshness_seconds` (0 = always refetch) and its own
// lifetime, which is the smallest of: the HTTP `Cache-Control` max-age (no-store / no-cache /
// private mean "do not reuse"), the RSL `max-age` in days once the document is parsed, and a
// default ceiling. A failure (timeout, refused, too large...) is remembered only for the documents that
// ask for it (`rememberFailures`: the origin-wide ones every quote on an origin reads) and only for
// FAILURE_MEMORY_SECONDS, within the caller's freshness: a publisher that drips one byte a second does not
// cost every quote the full timeout, and a timeout now hides a declaration for half a minute at most. A
// remembered failure is still a failure: it never reads as permission (docs/decisions.md "Signal readers
// under one work budget").

/** Lifetime when the response states none; and the ceiling whatever it states (spec §8 freshness max). */
export const DEFAULT_CACHE_LIFETIME_SECONDS = 300;
export const MAX_CACHE_LIFETIME_SECONDS = 3600;
const MAX_ENTRIES_PER_ORIGIN = 256;
/** How long a failed fetch of a document that asks for it is answered from memory. */
export const FAILURE_MEMORY_SECONDS = 30;
/** Failures remembered at once (the oldest are forgotten first). */
const MAX_REMEMBERED_FAILURES = 4096;

interface Entry {
  response: FetchResponse;
  storedAt: number;
  lifetimeSeconds: number;
}

/** A document version seen before: its digest and the validators it was served with (a checkpoint's). */
export interface KnownVersion {
  sha256: string | null;
  etag: string | null;
  lastModified: string | null;
}

export interface CacheOptions extends FetchOptions {
  /** Keep this response by digest, so a later conditional request for it can be answered by a 304. */
  keepByDigest?: boolean;
  /** Ask conditionally for this version when its bytes are held (revalidation, docs/wire.md §14). */
  known?: KnownVersion;
  /** Answer a failure of this URL from memory for FAILURE_MEMORY_SECONDS (within the caller's freshness). */
  rememberFailures?: boolean;
}

/** Bytes of documents kept by digest: RSL documents are at most 512 KiB, usually a few. */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;
/** A validator is sent back only as the visible ASCII a header value may hold. */
const HEADER_VALUE = /^[\x20-\x7e]{1,1024}$/;

export interface CachedResult {
  result: FetchResult;
  cached: boolean;
  ageSeconds: number;
}

export class FetchCache {
  private readonly origins = new Map<string, Map<string, Entry>>();
  // Documents by digest (insertion order = age), for revalidation: a 304 says "the version you hold",
  // which is only usable while the bytes it names are here. Without them the request is unconditional.
  private readonly byDigest = new Map<string, FetchResponse>();
  private keptBytes = 0;
  // Failures by URL (insertion order = age), for the callers that ask for them to be remembered.
  private readonly failures = new Map<string, { failure: FetchFailure; storedAt: number }>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly now: () => number = Date.now,
  ) {}

  async get(url: string, freshnessSeconds: number, opts: CacheOptions = {}): Promise<CachedResult> {
    const origin = originOf(url);
    const byUrl = this.origins.get(origin);
    const entry = byUrl?.get(url);
    if (entry) {
      const age = (this.now() - entry.storedAt) / 1000;
      if (age <= freshnessSeconds && age <= entry.lifetimeSeconds)
        return { result: entry.response, cached: true, ageSeconds: Math.floor(age) };
    }
    const { keepByDigest, known, rememberFailures, ...fetchOpts } = opts;
    if (rememberFailures) {
      const remembered = this.rememberedFailure(url, freshnessSeconds);
      if (remembered) return remembered;
    }
    const held = known?.sha256 ? this.byDigest.get(known.sha256) : undefined;
    const conditional = held && known ? validatorsOf(known) : undefined;
    let result = await this.fetcher.get(url, conditional ? { ...fetchOpts, conditional } : fetchOpts);
    if (held && result.ok && result.status === 304) result = notModified(held, result);
    if (keepByDigest && result.ok && result.status >= 200 && result.status < 300) this.keep(result);
    if (result.ok) {
      const lifetime = httpLifetime(result.headers);
      if (lifetime > 0) this.store(origin, url, { response: result, storedAt: this.now(), lifetimeSeconds: lifetime });
      else byUrl?.delete(url);
    }
    if (!result.ok && rememberFailures) this.rememberFailure(url, result);
    else this.failures.delete(url);
    return { result, cached: false, ageSeconds: 0 };
  }

  private rememberedFailure(url: string, freshnessSeconds: number): CachedResult | undefined {
    const f = this.failures.get(url);
    if (!f) return undefined;
    const age = (this.now() - f.storedAt) / 1000;
    if (age > Math.min(freshnessSeconds, FAILURE_MEMORY_SECONDS)) return undefined;
    const message = `${f.failure.message} (remembered: a failure is retried after ${FAILURE_MEMORY_SECONDS} s)`;
    return { result: { ...f.failure, message }, cached: true, ageSeconds: Math.floor(age) };
  }

  private rememberFailure(url: string, failure: FetchFailure): void {
    this.failures.delete(url);
    this.failures.set(url, { failure, storedAt: this.now() });
    while (this.failures.size > MAX_REMEMBERED_FAILURES) this.failures.delete(this.failures.keys().next().value!);
  }

  private keep(response: FetchResponse): void {
    if (this.byDigest.has(response.sha256) || response.body.length > MAX_KEPT_BYTES) return;
    this.byDigest.set(response.sha256, response);
    this.keptBytes += response.body.length;
    for (const [digest, old] of this.byDigest) {
      if (this.keptBytes <= MAX_KEPT_BYTES) break;
      this.byDigest.delete(digest);
      this.keptBytes -= old.body.length;
    }
  }

  /** Shorten a cached entry's lifetime (RSL `max-age`, in seconds); never lengthens it. */
  capLifetime(url: string, seconds: number): void {
    const entry = this.origins.get(originOf(url))?.get(url);
    if (entry) entry.lifetimeSeconds = Math.min(entry.lifetimeSeconds, seconds);
  }

  private store(origin: string, url: string, entry: Entry): void {
    let byUrl = this.origins.get(origin);
    if (!byUrl) {
      byUrl = new Map();
      this.origins.set(origin, byUrl);
    }
    byUrl.delete(url);
    byUrl.set(url, entry);
    while (byUrl.size > MAX_ENTRIES_PER_ORIGIN) byUrl.delete(byUrl.keys().next().value!);
  }
}

function validatorsOf(known: KnownVersion): FetchOptions['conditional'] {
  const etag = known.etag !== null && HEADER_VALUE.test(known.etag) ? known.etag : null;
  const lastModified = known.lastModified !== null && HEADER_VALUE.test(known.lastModified) ? known.lastModified : null;
  return etag || lastModified ? { etag, lastModified } : undefined;
}

/** A 304 read as the document it validated: its bytes and type, with the 304's fresher validators. */
function notModified(held: FetchResponse, answer: FetchResponse): FetchResponse {
  const fresher = ['etag', 'last-modified', 'cache-control', 'expires'].filter((h) => answer.headers[h] !== undefined);
  return {
    ...held,
    url: answer.url,
    fetchedAt: answer.fetchedAt,
    remoteAddress: answer.remoteAddress,
    headers: { ...held.headers, ...Object.fromEntries(fresher.map((h) => [h, answer.headers[h]!])) },
    notModified: true,
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Seconds this response may be reused under HTTP caching rules, read conservatively. */
export function httpLifetime(headers: Record<string, string>): number {
  const cc = (headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache|private)(\s*=|[\s,]|$)/.test(cc)) return 0;
  if (headers['pragma']?.toLowerCase().includes('no-cache')) return 0;
  const maxAges = [...cc.matchAll(/(?:^|[\s,])(?:s-maxage|max-age)\s*=\s*"?(\d+)"?/g)].map((m) => Number(m[1]));
  const stated = maxAges.length ? Math.min(...maxAges) : DEFAULT_CACHE_LIFETIME_SECONDS;
  return Math.min(stated, MAX_CACHE_LIFETIME_SECONDS);
}
