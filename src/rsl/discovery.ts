import { rslLinksFromHeader, RSL_MEDIA_TYPE } from './associations.js';
import type { DocumentInput } from './evaluate/evaluate.js';
import type { FetchCache, KnownVersion } from './fetch-cache.js';
import { readPageHtml, unreadPage } from './html-reading.js';
import { type PageReadings, readPageReadings } from './page-readings.js';
import type { ParseResult } from './parse/model.js';
import { parseRsl } from './parse/parse.js';
import type { ParseCache } from './parse-cache.js';
import { documentRecord as record, fetchObservation as observation } from './discovery-records.js';
import { resolveLicenseUrl, ROBOTS_PARSE_LIMIT_BYTES, robotsReadBytes } from './robots.js';
import { nextTurn } from './next-turn.js';
import { readRobots } from './robots-discovery.js';
import { checkFetchable } from './safe-fetch.js';
import { fetchTdmrep, observeSignals } from './signal-discovery.js';
import type { SignalReader } from './signal-reader-pool.js';
import type { Discovery, DiscoveryLimits, DiscoveryRun, Got } from './discovery-run.js';
import type { Channel } from '@rights-preflight/wire/rsl/vocabulary.js';

// Discovery (rsl.md §3): fetch the origin's robots.txt and the resource itself, collect every
// association (robots `License:` lines of every crawler's reading, the resource's `Link` header,
// HTML `<link>` and inline `<script>`), fetch each referenced document once, parse it, and record
// every observation. Nothing here decides rights; evaluate.ts does. A channel that cannot be read
// (timeout, redirect, 403, 5xx) is recorded as a failure, so the evaluation can never treat
// "could not look" as "nothing there".

export type { Discovery, DiscoveryLimits, DiscoveryRun, Got };

export const DEFAULT_DISCOVERY_LIMITS: DiscoveryLimits = {
  robotsMaxBytes: ROBOTS_PARSE_LIMIT_BYTES,
  pageMaxBytes: 2 * 1024 * 1024,
  documentMaxBytes: 512 * 1024,
  maxDocuments: 8,
};

export interface DiscoveryDeps {
  cache: FetchCache;
  coveredOrigins: readonly string[];
  limits?: DiscoveryLimits;
  /** Documents seen before, by URL (a revalidation's checkpoint): asked for conditionally (docs/wire.md §14). */
  known?: ReadonlyMap<string, KnownVersion>;
  /** Where the AI-use signal readers run (signal-reader-pool.ts); in place when absent. */
  signalReader?: SignalReader;
  /** Parses of fetched documents by their digest (parse-cache.ts): a warm quote does not parse again. */
  parseCache?: ParseCache;
}

const DAY = 86_400;
const DEFAULT_MAX_AGE_DAYS = 30;

type Fetched = { url: string; skipped: string } | { url: string; got: Got };

/** @param resource a canonical, covered resource URL (see resource-url.ts) */
export async function discover(resource: string, freshnessSeconds: number, deps: DiscoveryDeps): Promise<Discovery> {
  const limits = deps.limits ?? DEFAULT_DISCOVERY_LIMITS;
  const origin = new URL(resource).origin;
  const robotsUrl = `${origin}/robots.txt`;
  const out: Discovery = {
    observations: [],
    inputs: [],
    records: [],
    diagnostics: [],
    declarationFound: false,
    discoveryComplete: true,
    signals: [],
    robotsReadings: [],
    reasons: [],
  };
  const run: DiscoveryRun = {
    out,
    associations: [],
    channelFailure(channel, url, code, message) {
      out.discoveryComplete = false;
      out.inputs.push({ channel, url, sha256: null, parse: null, failure: { code, message } });
    },
  };

  // tdmrep.json beside them, bounded like robots.txt (docs/wire.md §15); it feeds the signal readers only. The
  // origin-wide documents (robots.txt, tdmrep.json, linked RSL documents) have their failures remembered
  // briefly (fetch-cache.ts); a failure of the resource itself is not.
  const [robots, page, tdmrep] = await Promise.all([
    deps.cache.get(robotsUrl, freshnessSeconds, {
      maxBytes: robotsReadBytes(limits.robotsMaxBytes),
      accept: 'text/plain',
      truncate: true,
      rememberFailures: true,
    }),
    deps.cache.get(resource, freshnessSeconds, {
      maxBytes: limits.pageMaxBytes,
      accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5',
    }),
    fetchTdmrep(deps.cache, origin, freshnessSeconds, limits.robotsMaxBytes),
  ]);
  await nextTurn();
  readRobots(run, robotsUrl, robots, limits);
  await nextTurn();
  const [html = null, ...otherDecodings] = await readResource(run, resource, page);
  const signals = await observeSignals(resource, robots, page, tdmrep, html, otherDecodings, deps.signalReader);
  out.signals = signals.observations;
  if (signals.diagnostic) out.diagnostics.push(signals.diagnostic);

  // Fetch each referenced document once; the same URL may be associated through several channels.
  const { byUrl, readingsOf } = documentsByUrl(run, resource);
  const fetched = await fetchDocuments([...byUrl.keys()], freshnessSeconds, deps, limits);
  for (const f of fetched) recordDocument(run, f, byUrl.get(f.url)!, readingsOf.get(f.url), deps, limits);
  return out;
}

/** The resource itself: status, Link header, HTML `<link>` and inline `<script>`; its decoded HTML when read (the
 *  browser's first, then the page in the encoding a later `<meta>` names, page-readings.ts). */
async function readResource(run: DiscoveryRun, resource: string, page: Got): Promise<string[]> {
  const { out, associations, channelFailure } = run;
  const pageObs = observation('resource', page.result, page.cached);
  out.observations.push(pageObs);
  if (!page.result.ok) {
    channelFailure('resource', resource, page.result.code, page.result.message);
  } else {
    const { status, headers } = page.result;
    if (status >= 300 && status < 400) {
      pageObs.notes.push(`redirect to ${headers.location ?? '?'} not followed`);
      channelFailure(
        'resource',
        resource,
        'RESOURCE_REDIRECT',
        `the resource answered ${status}; redirects are never followed`,
      );
    } else if (status === 403) {
      pageObs.notes.push('403 reported; never retried another way');
      channelFailure('resource', resource, 'RESOURCE_FORBIDDEN', 'the resource answered 403 Forbidden; not bypassed');
    } else if (status >= 500) {
      channelFailure('resource', resource, 'RESOURCE_UNAVAILABLE', `the resource answered ${status}`);
    } else {
      // 2xx, and 401/402/404 too: a license-gated answer may carry the Link (rsl.md §3.6).
      for (const href of rslLinksFromHeader(headers.link))
        associations.push({ channel: 'link-header', value: href, base: resource });
      const type = (headers['content-type'] ?? '').toLowerCase();
      if (status >= 200 && status < 300 && /text\/html|application\/xhtml\+xml/.test(type)) {
        const readings = await readPage(page.result.body, headers['content-type']);
        pageObs.encoding = readings.decoded.encoding;
        const unread = unreadPage(readings);
        if (unread) {
          // A page we could not read is never a page that says nothing.
          pageObs.error = unread;
          channelFailure('resource', resource, unread.code, unread.message);
        } else {
          return readPageHtml(run, resource, pageObs, readings);
        }
      }
    }
  }
  return [];
}

/**
 * The associations' targets, resolved, each with the channels (and robots readings) that name it;
 * unusable ones are recorded.
 */
function documentsByUrl(
  run: DiscoveryRun,
  resource: string,
): { byUrl: Map<string, Channel[]>; readingsOf: Map<string, number[]> } {
  const { out, associations } = run;
  const byUrl = new Map<string, Channel[]>();
  const readingsOf = new Map<string, number[]>();
  const unusable = new Map<string, DocumentInput>();
  for (const a of associations) {
    out.declarationFound = true;
    const resolved = resolveLicenseUrl(a.value, a.base);
    if (!resolved.ok) {
      // One input per value and channel, naming every robots reading that selects it.
      const key = `${a.channel} ${a.value}`;
      const known = unusable.get(key);
      if (known) {
        if (a.readings) known.robotsReadings = [...new Set([...(known.robotsReadings ?? []), ...a.readings])];
        continue;
      }
      const input: DocumentInput = {
        channel: a.channel,
        url: a.value,
        sha256: null,
        parse: null,
        failure: { code: 'LICENSE_URL_UNUSABLE', message: resolved.reason },
        ...(a.readings ? { robotsReadings: [...a.readings] } : {}),
      };
      unusable.set(key, input);
      out.inputs.push(input);
      continue;
    }
    if (resolved.relative && a.channel !== 'robots')
      out.diagnostics.push(
        `${a.channel}: relative target ${a.value} resolved against ${a.base === resource ? 'the resource' : a.base}` +
          ' (should be absolute)',
      );
    const channels = byUrl.get(resolved.href) ?? [];
    if (!channels.includes(a.channel)) channels.push(a.channel);
    byUrl.set(resolved.href, channels);
    if (a.readings)
      readingsOf.set(resolved.href, [...new Set([...(readingsOf.get(resolved.href) ?? []), ...a.readings])]);
  }
  return { byUrl, readingsOf };
}

/** Each covered document fetched once, up to the limit; the rest are skipped with the reason. */
function fetchDocuments(
  urls: string[],
  freshnessSeconds: number,
  deps: DiscoveryDeps,
  limits: DiscoveryLimits,
): Promise<Fetched[]> {
  return Promise.all(
    urls.map(async (url, i): Promise<Fetched> => {
      if (i >= limits.maxDocuments) return { url, skipped: 'TOO_MANY_ASSOCIATIONS' };
      const fetchable = checkFetchable(url, deps.coveredOrigins);
      // Off-coverage documents are never fetched: the association stays unverifiable (UNKNOWN, never permission).
      if (!fetchable.ok) return { url, skipped: fetchable.code };
      return {
        url,
        got: await deps.cache.get(url, freshnessSeconds, {
          maxBytes: limits.documentMaxBytes,
          accept: `${RSL_MEDIA_TYPE}, application/xml;q=0.9, */*;q=0.1`,
          keepByDigest: true,
          rememberFailures: true,
          ...(deps.known?.has(url) ? { known: deps.known.get(url)! } : {}),
        }),
      };
    }),
  );
}

/** One fetched (or skipped) document: parsed, its lifetime capped by max-age, recorded per channel. */
function recordDocument(
  run: DiscoveryRun,
  f: Fetched,
  channels: Channel[],
  readings: number[] | undefined,
  deps: DiscoveryDeps,
  limits: DiscoveryLimits,
): void {
  const { out } = run;
  // The robots readings that select this document (robots inputs only): the evaluator weighs each.
  const selectedBy = (channel: Channel) => (channel === 'robots' && readings ? { robotsReadings: readings } : {});
  if ('skipped' in f) {
    const message =
      f.skipped === 'TOO_MANY_ASSOCIATIONS'
        ? `more than ${limits.maxDocuments} license documents; not fetched`
        : `license document not fetched (${f.skipped}): only covered https origins are fetched`;
    for (const channel of channels) {
      out.inputs.push({
        channel,
        url: f.url,
        sha256: null,
        parse: null,
        failure: { code: f.skipped === 'FETCH_NOT_COVERED' ? 'LICENSE_NOT_COVERED' : f.skipped, message },
        ...selectedBy(channel),
      });
    }
    out.records.push(record(f.url, channels[0]!, null, null, { code: f.skipped, message }));
    return;
  }
  const { result, cached } = f.got;
  for (const channel of channels) out.observations.push(observation(channel, result, cached));
  if (result.ok && result.notModified)
    out.diagnostics.push(`${f.url}: 304 Not Modified to a conditional request; the version held was read`);
  let failure: { code: string; message: string } | null = null;
  let parse: ParseResult | null = null;
  if (!result.ok) failure = { code: result.code, message: result.message };
  else if (result.status >= 300 && result.status < 400)
    failure = {
      code: 'LICENSE_REDIRECT',
      message: `license document answered ${result.status}; redirects are never followed`,
    };
  else if (result.status < 200 || result.status >= 300)
    failure = { code: 'LICENSE_HTTP_STATUS', message: `license document answered ${result.status}` };
  else {
    parse = deps.parseCache ? deps.parseCache.parsed(result.sha256, result.body) : parseRsl(result.body);
    const type = (result.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== RSL_MEDIA_TYPE)
      out.diagnostics.push(
        `${f.url}: served as ${type || 'no content type'}, not ${RSL_MEDIA_TYPE} (accepted: the namespace decides)`,
      );
    const days = parse.ok ? (parse.document.maxAgeDays ?? DEFAULT_MAX_AGE_DAYS) : DEFAULT_MAX_AGE_DAYS;
    deps.cache.capLifetime(f.url, days * DAY);
  }
  const sha256 = result.ok ? result.sha256 : null;
  for (const channel of channels)
    out.inputs.push({ channel, url: f.url, sha256, parse, failure, ...selectedBy(channel) });
  out.records.push(record(f.url, channels[0]!, sha256, parse, failure));
}

// A response served from the fetch cache is the same object, body included: its readings are kept
// beside it and die with it, so a warm-cache quote does not decode and tokenize the page again.
const pageReadings = new WeakMap<Buffer, PageReadings>();

async function readPage(body: Buffer, contentType: string | undefined): Promise<PageReadings> {
  const known = pageReadings.get(body);
  if (known) return known;
  const readings = await readPageReadings(body, contentType);
  // An incomplete scan (time budget) is not kept: the next look may finish.
  if (unreadPage(readings)?.code !== 'PAGE_SCAN_TIME_LIMIT') pageReadings.set(body, readings);
  return readings;
}
