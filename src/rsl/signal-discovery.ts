import type { SignalObservation } from '../../packages/buyer/src/wire/signals/signal-observation.js';
import { readSignals } from '../signals/read-signals.js';
import type { FetchedText, SignalSources } from '../signals/signal-sources.js';
import type { CachedResult, FetchCache } from './fetch-cache.js';
import { robotsTextWithinLimit } from './robots.js';

// The other AI-use signals beside RSL (issue 28; docs/decisions.md, "Issue 28: the plumbing"): what
// discovery hands the pure readers (src/signals/read-signals.ts). They read the fetches discovery makes
// anyway (robots.txt, the page's headers and decoded HTML) and one more per origin, /.well-known/tdmrep.json,
// fetched through the same cache and safe fetch as robots.txt, with its byte limit, no redirects. A file
// that cannot be used is a failure the readers see; it never fails the quote and never touches the RSL
// reading (discovery_complete is about RSL's channels only).

export const TDMREP_PATH = '/.well-known/tdmrep.json';

type Got = CachedResult;

/** The origin's tdmrep.json through the cache: refused, not truncated, beyond `maxBytes` (a cut JSON is no file). */
export function fetchTdmrep(cache: FetchCache, origin: string, freshnessSeconds: number, maxBytes: number) {
  return cache.get(`${origin}${TDMREP_PATH}`, freshnessSeconds, { maxBytes, accept: 'application/json' });
}

/** 2xx: the file; 404/410: absent (no file: no TDMRep rule from it); anything else: why it is unusable. */
export function tdmrepSource(got: Got): SignalSources['tdmrep'] {
  const r = got.result;
  if (!r.ok) return { url: r.url, failure: { code: r.code, message: r.message } };
  if (r.status === 404 || r.status === 410) return undefined;
  if (r.status >= 200 && r.status < 300) return fetchedText(r.url, r.sha256, r.status, r.body.toString('utf8'));
  const failure =
    r.status >= 300 && r.status < 400
      ? { code: 'TDMREP_REDIRECT', message: `tdmrep.json answered ${r.status}; redirects are never followed` }
      : { code: 'TDMREP_HTTP_STATUS', message: `tdmrep.json answered ${r.status}` };
  return { url: r.url, failure };
}

/** robots.txt as the signal readers see it: a 2xx body, the lines complete within the parse limit. */
export function robotsSource(got: Got): FetchedText | undefined {
  const r = got.result;
  if (!r.ok || r.status < 200 || r.status >= 300) return undefined;
  return fetchedText(r.url, r.sha256, r.status, robotsTextWithinLimit(r.body, r.truncated === true));
}

/** The resource's answer when discovery read it (not 3xx, 403 or 5xx): headers, and the HTML as decoded. */
export function pageSource(got: Got, html: string | null): SignalSources['page'] {
  const r = got.result;
  if (!r.ok || (r.status >= 300 && r.status < 400) || r.status === 403 || r.status >= 500) return undefined;
  return { ...fetchedText(r.url, r.sha256, r.status, html ?? ''), headers: r.headers, html };
}

const fetchedText = (url: string, sha256: string, status: number, text: string): FetchedText => ({
  url,
  sha256,
  status,
  text,
});

/** Why a tdmrep.json could not be used, as a reading's diagnostic line; undefined when it could (or is absent). */
export function tdmrepDiagnostic(source: SignalSources['tdmrep']): string | undefined {
  if (!source || !('failure' in source)) return undefined;
  return `${source.url}: not read (${source.failure.code}: ${source.failure.message}); no TDMRep rule from it`;
}

// A warm-cache quote is served the very responses it was served before (the cache keeps the objects): the
// readings of the same responses are kept beside the page's body and die with it, so a warm quote neither
// fetches nor tokenizes anything more than it did before issue 28.
interface Kept {
  resource: string;
  robots: string | undefined;
  tdmrep: string | undefined;
  headers: object | undefined;
  observations: SignalObservation[];
}
const kept = new WeakMap<object, Kept>();

const identity = (s: FetchedText | { url: string; failure: { code: string } } | undefined) =>
  s === undefined ? undefined : 'failure' in s ? `failure:${s.failure.code}` : s.sha256;

/**
 * Every signal observed, read once per set of responses. `pageBody` is the page's body Buffer (the
 * cache's object), or undefined when there is none, in which case the (cheap, HTML-less) reading is redone.
 */
export function observeSignals(sources: SignalSources, pageBody: object | undefined): SignalObservation[] {
  const key = {
    resource: sources.resource,
    robots: identity(sources.robots),
    tdmrep: identity(sources.tdmrep),
    headers: sources.page?.headers,
  };
  const known = pageBody ? kept.get(pageBody) : undefined;
  if (
    known &&
    known.resource === key.resource &&
    known.robots === key.robots &&
    known.tdmrep === key.tdmrep &&
    known.headers === key.headers
  )
    return known.observations;
  const observations = readSignals(sources);
  if (pageBody) kept.set(pageBody, { ...key, observations });
  return observations;
}
