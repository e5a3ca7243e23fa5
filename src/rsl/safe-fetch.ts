import https from 'node:https';
import tls from 'node:tls';
import dns from 'node:dns';
import { createHash } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { refusedAddressReason } from './address-policy.js';

// The only way the RSL engine touches the network. HTTPS GET to covered origins only, through
// node:https with our own Agent so we control name resolution (a custom `lookup` that refuses
// private addresses) and the trusted CAs (system roots + an optional extra CA for tests/demo).
// Redirects are never followed (the 3xx is returned as observed), nothing is retried, responses
// are size-capped and time-bounded, and the address actually connected to is checked again.

export const FETCH_ERROR_CODES = [
  'FETCH_NOT_HTTPS',
  'FETCH_NOT_COVERED',
  'FETCH_BAD_URL',
  'FETCH_DNS_FAILED',
  'FETCH_ADDRESS_REFUSED',
  'FETCH_CONNECT_TIMEOUT',
  'FETCH_READ_TIMEOUT',
  'FETCH_TOO_LARGE',
  'FETCH_TLS_FAILED',
  'FETCH_CONNECTION_FAILED',
] as const;
export type FetchErrorCode = (typeof FETCH_ERROR_CODES)[number];

export interface FetchPolicy {
  coveredOrigins: readonly string[];
  /** Allow 127.0.0.0/8 and ::1 (tests, demo). Nothing else private is ever allowed. */
  allowLoopback: boolean;
  /** Extra trusted CA certificates (PEM), added to the system roots. */
  extraCaPem?: string | undefined;
  /** host -> loopback address and port, like curl --connect-to; honoured only with allowLoopback. */
  connectTo?: Readonly<Record<string, { address: string; port: number }>>;
  connectTimeoutMs?: number;
  /** Longest silence while reading the response. */
  readTimeoutMs?: number;
  /** Whole request, connect to last byte. */
  totalTimeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
}

export const FETCH_DEFAULTS = {
  connectTimeoutMs: 5_000,
  readTimeoutMs: 5_000,
  totalTimeoutMs: 10_000,
  maxBytes: 512 * 1024,
  userAgent: 'RightsPreflight/1.0 (+RSL discovery; never follows redirects)',
} as const;

export interface FetchResponse {
  ok: true;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  sha256: string;
  fetchedAt: string;
  remoteAddress: string;
  /** Set when the caller asked for a prefix (`truncate`) and the body was longer: `body` is its first maxBytes. */
  truncated?: true;
  /** The publisher answered a conditional request 304; `body` is the document it validated (fetch-cache.ts). */
  notModified?: true;
}
export interface FetchFailure {
  ok: false;
  url: string;
  code: FetchErrorCode;
  message: string;
  fetchedAt: string;
  /** Set when a status line arrived before the failure (e.g. a body over the size cap). */
  status: number | null;
}
export type FetchResult = FetchResponse | FetchFailure;

export interface FetchOptions {
  maxBytes?: number;
  accept?: string;
  /** Keep the first maxBytes of a longer body and stop reading (robots.txt, RFC 9309 §2.5), instead of failing. */
  truncate?: boolean;
  /** Validators of a document held already: sent as If-None-Match / If-Modified-Since (a 304 may answer). */
  conditional?: { etag: string | null; lastModified: string | null };
}

export interface Fetcher {
  get(url: string, opts?: FetchOptions): Promise<FetchResult>;
  close(): void;
}

class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Origin and scheme checks shared by every fetch: https, covered origin, no credentials or port. */
export function checkFetchable(
  url: string,
  coveredOrigins: readonly string[],
): { ok: true; url: URL } | { ok: false; code: FetchErrorCode; message: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, code: 'FETCH_BAD_URL', message: 'not a URL' };
  }
  if (u.protocol !== 'https:') return { ok: false, code: 'FETCH_NOT_HTTPS', message: `${u.protocol} is not https` };
  if (u.username || u.password || u.port !== '')
    return { ok: false, code: 'FETCH_BAD_URL', message: 'URLs with credentials or an explicit port are not fetched' };
  if (!coveredOrigins.includes(u.origin))
    return {
      ok: false,
      code: 'FETCH_NOT_COVERED',
      message: `${u.origin} is not a covered origin; nothing outside coverage is fetched`,
    };
  return { ok: true, url: u };
}

export function createSafeFetcher(policy: FetchPolicy): Fetcher {
  const connectTimeoutMs = policy.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs;
  const readTimeoutMs = policy.readTimeoutMs ?? FETCH_DEFAULTS.readTimeoutMs;
  const totalTimeoutMs = policy.totalTimeoutMs ?? FETCH_DEFAULTS.totalTimeoutMs;
  const defaultMaxBytes = policy.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const connectTo = policy.allowLoopback ? (policy.connectTo ?? {}) : {};
  // One secure context for every connection. Handed `ca`, Node builds a new context per connection and
  // parses every root certificate again: ~12 ms of the event loop per fetch, which was most of what a
  // fresh quote held /healthz for (a CPU profile of bench:hostile, docs/decisions.md).
  const secureContext = tls.createSecureContext({
    ca: policy.extraCaPem ? [...tls.rootCertificates, policy.extraCaPem] : [...tls.rootCertificates],
    minVersion: 'TLSv1.2',
  });
  const agent = new https.Agent({ keepAlive: false, maxSockets: 32, secureContext });

  const lookup = publicOnlyLookup(policy.allowLoopback, connectTo);

  async function get(rawUrl: string, opts: FetchOptions = {}): Promise<FetchResult> {
    const fetchedAt = new Date().toISOString();
    const checked = checkFetchable(rawUrl, policy.coveredOrigins);
    if (!checked.ok)
      return { ok: false, url: rawUrl, code: checked.code, message: checked.message, fetchedAt, status: null };
    const url = checked.url;
    const maxBytes = opts.maxBytes ?? defaultMaxBytes;
    const pinned = connectTo[url.hostname];

    return new Promise<FetchResult>((resolve) => {
      let status: number | null = null;
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (r: FetchResult) => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        resolve(r);
      };
      const fail = (code: FetchErrorCode, message: string) => {
        finish({ ok: false, url: url.href, code, message, fetchedAt, status });
        req.destroy();
      };

      const req = https.request({
        protocol: 'https:',
        host: url.hostname,
        port: pinned?.port ?? 443,
        servername: url.hostname,
        path: url.pathname + url.search,
        method: 'GET',
        agent,
        lookup: lookup as unknown as typeof dns.lookup,
        headers: {
          host: url.hostname,
          'user-agent': policy.userAgent ?? FETCH_DEFAULTS.userAgent,
          accept: opts.accept ?? '*/*',
          'accept-encoding': 'identity',
          ...(opts.conditional?.etag ? { 'if-none-match': opts.conditional.etag } : {}),
          ...(opts.conditional?.lastModified ? { 'if-modified-since': opts.conditional.lastModified } : {}),
        },
      });
      const failAfter = (ms: number, code: FetchErrorCode, message: string) =>
        timers.push(setTimeout(() => fail(code, message), ms));
      // timers[0], the connect deadline, is cleared once TLS is up.
      failAfter(connectTimeoutMs, 'FETCH_CONNECT_TIMEOUT', `no TLS connection within ${connectTimeoutMs} ms`);
      failAfter(totalTimeoutMs, 'FETCH_READ_TIMEOUT', `response not complete within ${totalTimeoutMs} ms`);
      let remoteAddress = '';

      req.on('socket', (socket: Socket) => {
        socket.once('connect', () => {
          // Check again what we are actually connected to, whatever resolved the name.
          remoteAddress = socket.remoteAddress ?? '';
          const why = refusedAddressReason(remoteAddress, policy.allowLoopback);
          if (why) fail('FETCH_ADDRESS_REFUSED', `connected address ${remoteAddress} (${why}) refused`);
        });
        socket.once('secureConnect', () => clearTimeout(timers[0]));
      });
      req.setTimeout(readTimeoutMs, () =>
        fail(
          status === null && !remoteAddress ? 'FETCH_CONNECT_TIMEOUT' : 'FETCH_READ_TIMEOUT',
          `no data for ${readTimeoutMs} ms`,
        ),
      );
      req.on('error', (err: Error & { code?: string }) => fail(...requestFailure(err)));
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        readResponse(res, {
          ...{ url, fetchedAt, maxBytes, truncate: opts.truncate, remoteAddress: () => remoteAddress },
          ...{ settled: () => settled, finish, fail, destroy: () => req.destroy() },
        });
      });
      req.end();
    });
  }

  return { get, close: () => agent.destroy() };
}

// Resolve, then refuse the whole answer if any address is not public: a name that also points
// at a private address is not a publisher we fetch from (and cannot rebind us between lookups).
function publicOnlyLookup(allowLoopback: boolean, connectTo: Record<string, { address: string; port: number }>) {
  return (hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const deliver = (addresses: LookupAddress[]) => {
      for (const a of addresses) {
        const why = refusedAddressReason(a.address, allowLoopback);
        if (why)
          return callback(
            new FetchError('FETCH_ADDRESS_REFUSED', `${hostname} resolves to ${a.address} (${why}); refused`),
          );
      }
      if (addresses.length === 0) return callback(new FetchError('FETCH_DNS_FAILED', `${hostname} has no address`));
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const pinned = connectTo[hostname];
    if (pinned)
      return deliver([
        {
          address: pinned.address === 'localhost' ? '127.0.0.1' : pinned.address,
          family: pinned.address.includes(':') ? 6 : 4,
        },
      ]);
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      if (err)
        return callback(new FetchError('FETCH_DNS_FAILED', `cannot resolve ${hostname}: ${err.code ?? err.message}`));
      deliver(addresses);
    });
  };
}

interface ResponseReading {
  url: URL;
  fetchedAt: string;
  maxBytes: number;
  truncate: boolean | undefined;
  remoteAddress: () => string;
  settled: () => boolean;
  finish: (r: FetchResult) => void;
  fail: (code: FetchErrorCode, message: string) => void;
  destroy: () => void;
}

/** The body of an answer, within the byte limit (cut at it when `truncate`, else refused), and its digest. */
function readResponse(res: IncomingMessage, o: ResponseReading): void {
  const status = res.statusCode ?? 0;
  const declared = Number(res.headers['content-length']);
  if (!o.truncate && Number.isFinite(declared) && declared > o.maxBytes) {
    o.fail('FETCH_TOO_LARGE', `declared ${declared} bytes; the limit is ${o.maxBytes}`);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const complete = (truncated: boolean) => {
    if (o.settled()) return;
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    o.finish({
      ok: true,
      url: o.url.href,
      status,
      headers,
      body,
      sha256: createHash('sha256').update(body).digest('hex'),
      fetchedAt: o.fetchedAt,
      remoteAddress: o.remoteAddress(),
      ...(truncated ? { truncated: true as const } : {}),
    });
  };
  res.on('data', (chunk: Buffer) => {
    if (o.settled()) return;
    size += chunk.length;
    if (size > o.maxBytes) {
      if (!o.truncate) return o.fail('FETCH_TOO_LARGE', `more than ${o.maxBytes} bytes; aborted`);
      chunks.push(chunk.subarray(0, chunk.length - (size - o.maxBytes)));
      complete(true);
      return o.destroy();
    }
    chunks.push(chunk);
  });
  res.on('error', (err) => o.fail('FETCH_CONNECTION_FAILED', err.message));
  res.on('end', () => complete(false));
}

/** Why a request failed: our own refusals keep their code; TLS trouble is told apart from the rest. */
function requestFailure(err: Error & { code?: string }): [FetchErrorCode, string] {
  if (err instanceof FetchError) return [err.code, err.message];
  const tlsLike =
    /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO|HOSTNAME|ERR_TLS/i.test(err.code ?? '') ||
    /certificate|ssl|tls/i.test(err.message);
  return [tlsLike ? 'FETCH_TLS_FAILED' : 'FETCH_CONNECTION_FAILED', `${err.code ?? 'error'}: ${err.message}`];
}
