import http from 'node:http';
import https from 'node:https';

// The `fetch` viem's http transport sends our JSON-RPC requests with (its `fetchFn` option): a POST of a
// string body on node:http(s) with kept-alive connections, answered with the few parts of a Response viem
// reads (ok, status, statusText, headers.get, text). Node's fetch (undici) cost about 0.6–0.8 ms of CPU per
// request on this machine against 0.25 ms for node:http, and a paid redemption makes two or three of them
// (docs/decisions.md, "Receipt watcher and a leaner JSON-RPC fetch"). viem still builds every request and
// reads every answer, so its errors, retries and timeouts are unchanged: a timeout aborts the signal it
// passes, which destroys the request here and rejects with an AbortError, as fetch does.

/** One keep-alive pool per scheme; node's agent closes an idle socket before the server's Keep-Alive hint. */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

const urls = new Map<string, URL>();
const urlOf = (input: string): URL => {
  let url = urls.get(input);
  if (!url) {
    url = new URL(input);
    if (urls.size < 100) urls.set(input, url);
  }
  return url;
};

/** The parts of a fetch Response that viem's http transport reads. */
interface JsonRpcResponse {
  ok: boolean;
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: null;
  text(): Promise<string>;
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

export function jsonRpcFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? urlOf(input) : input instanceof URL ? input : urlOf(input.url);
  const body = typeof init.body === 'string' ? init.body : '';
  const signal = init.signal ?? undefined;
  const scheme = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const req = scheme.request(
      url,
      {
        method: init.method ?? 'POST',
        headers: { ...(init.headers as Record<string, string>), 'content-length': Buffer.byteLength(body) },
        agent: agents[url.protocol as keyof typeof agents],
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('end', () => {
          signal?.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          const answer: JsonRpcResponse = {
            ok: status >= 200 && status < 300,
            status,
            statusText: res.statusMessage ?? '',
            headers: {
              get(name) {
                const v = res.headers[name.toLowerCase()];
                return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
              },
            },
            body: null,
            text: async () => text,
          };
          resolve(answer as unknown as Response);
        });
      },
    );
    function fail(err: unknown) {
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    }
    function onAbort() {
      req.destroy();
      reject(abortError());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(body);
  });
}
