import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { readHtmlMetas, unionOfMetas } from '../signals/html-meta.js';
import { readSignals } from '../signals/read-signals.js';
import type { FetchedText, SignalSources } from '../signals/signal-sources.js';
import type { CachedResult, FetchCache } from './fetch-cache.js';
import { decodeFetchedText } from './fetched-text.js';
import { robotsText } from './robots.js';
import type { SignalReader } from './signal-reader-pool.js';

// The other AI-use signals beside RSL (docs/decisions.md, "The plumbing of the signals beside RSL"): what
// discovery hands the pure readers (src/signals/read-signals.ts). They read the fetches discovery makes
// anyway (robots.txt, the page's headers and decoded HTML) and one more per origin, /.well-known/tdmrep.json,
// fetched through the same cache and safe fetch as robots.txt, with its byte limit, redirects on the
// origin only. A file that cannot be used is a failure the readers see; it never fails the quote and
// never touches the RSL reading (discovery_complete is about RSL's channels only).

const TDMREP_PATH = '/.well-known/tdmrep.json';

type Got = CachedResult;

/** At most this many redirects are followed for tdmrep.json (the fetch rules: count, then size, HTTPS, origin). */
export const TDMREP_MAX_REDIRECTS = 5;

/**
 * The origin's tdmrep.json through the cache: refused, not truncated, beyond `maxBytes` (a cut JSON is no file).
 * #sec-tdm-file counts "a sequence of redirects that leads to such a representation" as the file: a redirect
 * to the same origin is followed, each step a fetch like the first (covered origin, HTTPS, public address,
 * size), at most TDMREP_MAX_REDIRECTS of them; one leaving the origin is not (the file describes this origin).
 * A failure is remembered briefly (fetch-cache.ts), so a stalling file does not hold every quote on the origin.
 */
export async function fetchTdmrep(
  cache: FetchCache,
  origin: string,
  freshnessSeconds: number,
  maxBytes: number,
): Promise<Got> {
  const opts = { maxBytes, accept: 'application/json', rememberFailures: true };
  let got = await cache.get(`${origin}${TDMREP_PATH}`, freshnessSeconds, opts);
  for (let hops = 0; ; hops++) {
    const next = sameOriginRedirect(got, origin);
    if (next === null || hops === TDMREP_MAX_REDIRECTS) return got;
    got = await cache.get(next, freshnessSeconds, opts);
  }
}

/** The target of a 3xx answer when it stays on `origin` (https, same host and port); null otherwise. */
function sameOriginRedirect(got: Got, origin: string): string | null {
  const r = got.result;
  if (!r.ok || r.status < 300 || r.status >= 400 || r.status === 304 || !r.headers.location) return null;
  try {
    const target = new URL(r.headers.location, r.url);
    target.hash = '';
    return target.origin === origin ? target.href : null;
  } catch {
    return null;
  }
}

/** 2xx: the file; 404/410: absent (no file: no TDMRep rule from it); anything else: why it is unusable. */
function tdmrepSource(got: Got): SignalSources['tdmrep'] {
  const r = got.result;
  if (!r.ok) return { url: r.url, failure: { code: r.code, message: r.message } };
  if (r.status === 404 || r.status === 410) return undefined;
  if (r.status >= 200 && r.status < 300) return fetchedText(r.url, r.sha256, r.status, decodeFetchedText(r.body).text);
  const failure =
    r.status >= 300 && r.status < 400 && sameOriginRedirect(got, new URL(r.url).origin) !== null
      ? {
          code: 'TDMREP_TOO_MANY_REDIRECTS',
          message: `tdmrep.json: more than ${TDMREP_MAX_REDIRECTS} redirects on the origin; not followed further`,
        }
      : r.status >= 300 && r.status < 400
        ? {
            code: 'TDMREP_REDIRECT',
            message:
              `tdmrep.json answered ${r.status} to ${(r.headers.location ?? '?').slice(0, 256)}: ` +
              'a redirect off the origin is not followed',
          }
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
async function pageSource(got: Got, html: string | null, others: readonly string[]): Promise<SignalSources['page']> {
  const r = got.result;
  if (!r.ok || (r.status >= 300 && r.status < 400) || r.status === 403 || r.status >= 500) return undefined;
  let metas = html === null ? [] : await readHtmlMetas(html);
  for (const text of others) metas = unionOfMetas(metas, await readHtmlMetas(text));
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

// A warm-cache quote is served the very responses it was served before (the cache keeps the objects): what was read
// from the same responses is kept beside the page's response and dies with it, so a warm quote neither fetches, decodes
// nor tokenizes anything more than it did before the signals beside RSL were read. A failure is a new object every time
// (a remembered one too), so it is read again.
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

/** Every signal observed on discovery's three answers (`html`: the page as decoded, when it was read; `others`: the
 *  page decoded as a later `<meta>` says, whose metas count too); `read` is where the readers run
 *  (signal-reader-pool.ts), in place by default. */
export async function observeSignals(
  resource: string,
  robots: Got,
  page: Got,
  tdmrep: Got,
  html: string | null,
  others: readonly string[] = [],
  read: SignalReader = async (sources) => readSignals(sources),
): Promise<SignalsRead> {
  const known = kept.get(page.result);
  if (known && known.resource === resource && known.robots === robots.result && known.tdmrep === tdmrep.result)
    return known.read;
  const file = tdmrepSource(tdmrep);
  const scannedPage = await pageSource(page, html, others);
  const sources: SignalSources = { resource, robots: robotsSource(robots), page: scannedPage, tdmrep: file };
  const signals = { observations: await read(sources), diagnostic: tdmrepDiagnostic(file) };
  kept.set(page.result, { resource, robots: robots.result, tdmrep: tdmrep.result, read: signals });
  return signals;
}
