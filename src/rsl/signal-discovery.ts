import type { SignalObservation } from '../../packages/buyer/src/wire/signals/signal-observation.js';
import { readHtmlMetas } from '../signals/html-meta.js';
import { readSignals } from '../signals/read-signals.js';
import type { FetchedText, SignalSources } from '../signals/signal-sources.js';
import type { CachedResult, FetchCache } from './fetch-cache.js';
import { decodeFetchedText } from './fetched-text.js';
import { robotsText } from './robots.js';

// The other AI-use signals beside RSL (issue 28; docs/decisions.md, "Issue 28: the plumbing"): what
// discovery hands the pure readers (src/signals/read-signals.ts). They read the fetches discovery makes
// anyway (robots.txt, the page's headers and decoded HTML) and one more per origin, /.well-known/tdmrep.json,
// fetched through the same cache and safe fetch as robots.txt, with its byte limit, no redirects. A file
// that cannot be used is a failure the readers see; it never fails the quote and never touches the RSL
// reading (discovery_complete is about RSL's channels only).

const TDMREP_PATH = '/.well-known/tdmrep.json';

type Got = CachedResult;

/** The origin's tdmrep.json through the cache: refused, not truncated, beyond `maxBytes` (a cut JSON is no file). */
export function fetchTdmrep(cache: FetchCache, origin: string, freshnessSeconds: number, maxBytes: number) {
  return cache.get(`${origin}${TDMREP_PATH}`, freshnessSeconds, { maxBytes, accept: 'application/json' });
}

/** 2xx: the file; 404/410: absent (no file: no TDMRep rule from it); anything else: why it is unusable. */
function tdmrepSource(got: Got): SignalSources['tdmrep'] {
  const r = got.result;
  if (!r.ok) return { url: r.url, failure: { code: r.code, message: r.message } };
  if (r.status === 404 || r.status === 410) return undefined;
  if (r.status >= 200 && r.status < 300) return fetchedText(r.url, r.sha256, r.status, decodeFetchedText(r.body).text);
  const failure =
    r.status >= 300 && r.status < 400
      ? { code: 'TDMREP_REDIRECT', message: `tdmrep.json answered ${r.status}; redirects are never followed` }
      : { code: 'TDMREP_HTTP_STATUS', message: `tdmrep.json answered ${r.status}` };
  return { url: r.url, failure };
}

/** robots.txt as the signal readers see it: a 2xx body (never a 4xx or 5xx error page, RFC 9309 §2.3.1.3–4),
 *  decoded with its byte order mark dropped, the lines complete within what was read. */
function robotsSource(got: Got): FetchedText | undefined {
  const r = got.result;
  if (!r.ok || r.status < 200 || r.status >= 300) return undefined;
  return fetchedText(r.url, r.sha256, r.status, robotsText(r.body, r.truncated === true).text);
}

/** The resource's answer when discovery read it (not 3xx, 403 or 5xx): headers, the HTML as decoded and its
 *  metas, scanned in slices with the event loop running between them (readHtmlMetas). */
async function pageSource(got: Got, html: string | null): Promise<SignalSources['page']> {
  const r = got.result;
  if (!r.ok || (r.status >= 300 && r.status < 400) || r.status === 403 || r.status >= 500) return undefined;
  const metas = html === null ? [] : await readHtmlMetas(html);
  return { ...fetchedText(r.url, r.sha256, r.status, html ?? ''), headers: r.headers, html, metas };
}

const fetchedText = (url: string, sha256: string, status: number, text: string): FetchedText => ({
  url,
  sha256,
  status,
  text,
});

/** Why a tdmrep.json could not be used, as a reading's diagnostic line; undefined when it could (or is absent). */
function tdmrepDiagnostic(source: SignalSources['tdmrep']): string | undefined {
  if (!source || !('failure' in source)) return undefined;
  return `${source.url}: not read (${source.failure.code}: ${source.failure.message}); no TDMRep rule from it`;
}

// A warm-cache quote is served the very responses it was served before (the cache keeps the objects): what
// was read from the same responses is kept beside the page's response and dies with it, so a warm quote
// neither fetches, decodes nor tokenizes anything more than it did before issue 28. A failure is a new
// object every time (failures are never cached), so it is read again, as it is fetched again.
interface Kept {
  resource: string;
  robots: object;
  tdmrep: object;
  read: SignalsRead;
}
const kept = new WeakMap<object, Kept>();

export interface SignalsRead {
  observations: SignalObservation[];
  /** Why the origin's tdmrep.json could not be used, for the reading's diagnostics. */
  diagnostic: string | undefined;
}

/** Every signal observed on discovery's three answers (`html`: the page as decoded, when it was read). */
export async function observeSignals(
  resource: string,
  robots: Got,
  page: Got,
  tdmrep: Got,
  html: string | null,
): Promise<SignalsRead> {
  const known = kept.get(page.result);
  if (known && known.resource === resource && known.robots === robots.result && known.tdmrep === tdmrep.result)
    return known.read;
  const file = tdmrepSource(tdmrep);
  const scannedPage = await pageSource(page, html);
  const sources: SignalSources = { resource, robots: robotsSource(robots), page: scannedPage, tdmrep: file };
  const read = { observations: readSignals(sources), diagnostic: tdmrepDiagnostic(file) };
  kept.set(page.result, { resource, robots: robots.result, tdmrep: tdmrep.result, read });
  return read;
}
