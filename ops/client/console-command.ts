import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from '../operator/args.js';
import { EXIT, type OperatorContext } from '../operator/context.js';
import { operatorRequest, reachOperatorListener, type OperatorListener } from './operator-listener.js';

// `console [--port N] [--json]`: the operator console of the running service in a browser. The
// console is served on the operator listener, which is a Unix socket (browsers cannot open one) or
// TCP behind a bearer token (browsers cannot send one on a link). So this command serves a loopback
// URL that forwards every request to the listener, and prints it:
//
//   $ npm run ops -- console
//   operator console: http://127.0.0.1:41873/console?key=9c1e…   (Ctrl-C to stop)
//
// The loopback port is open to every local user, so the URL carries a key made for this run; the
// first request with it gets an HttpOnly, SameSite=Strict cookie, and nothing without one is forwarded.
// Requests naming another Host are refused (a DNS-rebinding page cannot borrow the cookie's origin).

const COOKIE = 'ops_console';
/** The console's forms post a few fields; the listener caps bodies at 64 KiB itself. */
const MAX_BODY = 64 * 1024;

export async function consoleCommand(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['port', 'json']);
  if (args.positionals.length > 0) throw new UsageError('console takes no arguments');
  const portText = stringFlag(args, 'port');
  if (portText !== undefined && (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535))
    throw new UsageError('--port must be a port number');
  const listener = await reachOperatorListener(ctx.config);
  if (!listener) {
    const tcp = ctx.config.operatorListen;
    ctx.err(
      `the service is not running (no operator listener at ${ctx.config.operatorSocket}` +
        `${tcp ? ` or ${tcp.host}:${tcp.port}` : ''}): start it with npm start`,
    );
    return EXIT.cannotRun;
  }
  const proxy = await startConsoleProxy(listener, Number(portText ?? 0));
  if (args.flags.has('json')) ctx.out(JSON.stringify({ url: proxy.url }));
  else ctx.out(`operator console: ${proxy.url}   (Ctrl-C to stop)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.stop();
  return EXIT.ok;
}

export async function startConsoleProxy(
  listener: OperatorListener,
  port = 0,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const key = randomBytes(24).toString('base64url');
  let host = '';
  const server = http.createServer((req, res) => void forward(req, res));

  async function forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://loopback');
    if (req.headers.host !== host) return refuse(res, 421, 'wrong host');
    const given = url.searchParams.get('key') ?? cookie(req.headers.cookie, COOKIE);
    if (!given || !sameKey(given, key)) return refuse(res, 401, 'open the URL printed by npm run ops -- console');
    if (url.searchParams.has('key')) {
      url.searchParams.delete('key');
      res.setHeader('set-cookie', `${COOKIE}=${key}; HttpOnly; SameSite=Strict; Path=/`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return refuse(res, 413, 'request body too large');
      chunks.push(chunk as Buffer);
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const name of ['accept', 'content-type'] as const) if (req.headers[name]) headers[name] = req.headers[name];
    try {
      const upstream = await operatorRequest(listener, {
        method: req.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      res.writeHead(
        upstream.statusCode ?? 502,
        pick(upstream.headers, [
          'content-type',
          'content-length',
          'location',
          'cache-control',
          'content-security-policy',
        ]),
      );
      upstream.pipe(res);
    } catch (err) {
      refuse(res, 502, `the operator listener did not answer: ${(err as Error).message}`);
    }
  }

  server.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port: bound } = server.address() as AddressInfo;
  host = `127.0.0.1:${bound}`;
  return {
    url: `http://${host}/console?key=${key}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function sameKey(given: string, key: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

function pick(headers: http.IncomingHttpHeaders, names: readonly string[]): http.OutgoingHttpHeaders {
  return Object.fromEntries(names.filter((n) => headers[n] !== undefined).map((n) => [n, headers[n]!]));
}
