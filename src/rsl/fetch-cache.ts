import type { FetchOptions, FetchResponse, FetchResult, Fetcher } from './safe-fetch.js';

// Per-origin response cache in front of the safe fetcher. A cached response is reused only when
// it is younger than BOTH the caller's `freshness_seconds` (0 = always refetch) and its own
// lifetime, which is the smallest of: the HTTP `Cache-Control` max-age (no-store / no-cache /
// private mean "do not reuse"), the RSL `max-age` in days once the document is parsed, and a
// default ceiling. Failures are never cached: a timeout now must not hide a declaration later.

/** Lifetime when the response states none; and the ceiling whatever it states (spec §8 freshness max). */
export const DEFAULT_CACHE_LIFETIME_SECONDS = 300;
export const MAX_CACHE_LIFETIME_SECONDS = 3600;
const MAX_ENTRIES_PER_ORIGIN = 256;

interface Entry {
  response: FetchResponse;
  storedAt: number;
  lifetimeSeconds: number;
}

export interface CachedResult {
  result: FetchResult;
  cached: boolean;
  ageSeconds: number;
}

export class FetchCache {
  private readonly origins = new Map<string, Map<string, Entry>>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly now: () => number = Date.now,
  ) {}

  async get(url: string, freshnessSeconds: number, opts: FetchOptions = {}): Promise<CachedResult> {
    const origin = originOf(url);
    const byUrl = this.origins.get(origin);
    const entry = byUrl?.get(url);
    if (entry) {
      const age = (this.now() - entry.storedAt) / 1000;
      if (age <= freshnessSeconds && age <= entry.lifetimeSeconds)
        return { result: entry.response, cached: true, ageSeconds: Math.floor(age) };
    }
    const result = await this.fetcher.get(url, opts);
    if (result.ok) {
      const lifetime = httpLifetime(result.headers);
      if (lifetime > 0) this.store(origin, url, { response: result, storedAt: this.now(), lifetimeSeconds: lifetime });
      else byUrl?.delete(url);
    }
    return { result, cached: false, ageSeconds: 0 };
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
