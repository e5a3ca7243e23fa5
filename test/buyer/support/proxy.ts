import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { startedInHook } from '../../support/started-in-hook.js';

// A real HTTP peer between the buyer and the service (127.0.0.1): forwards every request and lets a
// test rewrite a response, or swallow it after the service has handled it (the socket is destroyed).

export interface Exchange {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
}
export type Rewrite = (
  ex: Exchange,
  res: { headers: Record<string, string>; body: Buffer },
) => { headers: Record<string, string>; body: Buffer } | 'drop' | undefined;

export interface Proxy {
  url: string;
  seen: Exchange[];
  rewrite: Rewrite | undefined;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<Proxy> {
  const proxy: Proxy = { url: '', seen: [], rewrite: undefined, close: async () => {} };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length') headers[k] = v;
    try {
      const up = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await up.arrayBuffer());
      const outHeaders: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection')
          outHeaders[k] = v;
      });
      const ex: Exchange = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        status: up.status,
      };
      proxy.seen.push(ex);
      const out = proxy.rewrite?.(ex, { headers: outHeaders, body }) ?? { headers: outHeaders, body };
      if (out === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(up.status, out.headers);
      res.end(out.body);
    } catch {
      res.writeHead(502);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return proxy;
}

/** Rewrites the x402 PAYMENT-REQUIRED header (base64 JSON) of a response. */
export function rewritePaymentRequired(
  headers: Record<string, string>,
  edit: (pr: any) => void,
): Record<string, string> {
  const pr = JSON.parse(Buffer.from(headers['payment-required']!, 'base64').toString('utf8'));
  edit(pr);
  return { ...headers, 'payment-required': Buffer.from(JSON.stringify(pr), 'utf8').toString('base64') };
}

/** A request that carried a signed payment. */
export const isPaid = (ex: { headers: Record<string, unknown> }) => typeof ex.headers['payment-signature'] === 'string';

/**
 * Swallows the first paid answer after the service handled it, and records how many encrypted
 * checkpoints the buyer held at that moment (the checkpoint must exist before the payment leaves).
 */
export function dropFirstPaidAnswer(
  proxy: Proxy,
  checkpoints: { size: number },
): { checkpointsAtFirstSend: number | undefined } {
  const seen: { checkpointsAtFirstSend: number | undefined } = { checkpointsAtFirstSend: undefined };
  proxy.rewrite = (ex) => {
    if (!isPaid(ex) || seen.checkpointsAtFirstSend !== undefined) return undefined;
    seen.checkpointsAtFirstSend = checkpoints.size;
    return 'drop';
  };
  return seen;
}

/** Resumed, not repeated: the same signed header went out twice; it was signed and checkpointed once. */
export function assertResumedWithOneAuthorization(
  t: ExecutionContext,
  proxy: Proxy,
  b: { calls: { op: string; header?: string }[]; events: { step: string }[] },
  dropped: { checkpointsAtFirstSend: number | undefined },
) {
  t.is(dropped.checkpointsAtFirstSend, 1, 'the encrypted checkpoint existed before the payment was sent');
  const paid = proxy.seen.filter(isPaid);
  t.is(paid.length, 2);
  t.is(paid[0]!.headers['payment-signature'], paid[1]!.headers['payment-signature']);
  t.is(paid[0]!.headers['payment-signature'], b.calls[0]!.header);
  t.is(b.calls.filter((c) => c.op === 'save').length, 1, 'signed once, checkpointed once');
  t.is(b.events.filter((e) => e.step === 'signed').length, 1);
}

/** The proxy to `target` for the calling test file, with no rewrite and nothing seen at each test's start. */
export function useProxy(target: () => string): Proxy {
  const proxy = startedInHook(
    () => startProxy(target()),
    (p) => p.close(),
  );
  test.beforeEach(() => {
    proxy.rewrite = undefined;
    proxy.seen.length = 0;
  });
  return proxy;
}
