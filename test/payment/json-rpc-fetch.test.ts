import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { createPublicClient, http as httpTransport } from 'viem';
import { jsonRpcFetch } from '../../src/payment/settlement/json-rpc-fetch.js';

// viem's http transport with our node:http `fetchFn` (json-rpc-fetch.ts) answers and fails exactly as with
// Node's fetch: the same results, the same error classes with the same codes, statuses and details, for
// every way a JSON-RPC endpoint can answer. The endpoint is a real HTTP server on loopback; each method
// name picks how it answers. Only a broken connection's `details` differ (the cause's text: undici's
// "fetch failed", node's "socket hang up" or "connect ECONNREFUSED"); nothing reads them for a decision
// (classify.ts, eip3009-transfer.ts and nonce-manager.ts match refusal reasons a node sends, not these).

type Call = { id: number; method: string; params: unknown[] };

const answerTo = (c: Call) => {
  switch (c.method) {
    case 'ok':
      return { jsonrpc: '2.0', id: c.id, result: '0x2a' };
    case 'reverted':
      return { jsonrpc: '2.0', id: c.id, error: { code: 3, message: 'execution reverted', data: '0x08c379a0' } };
    default:
      return { jsonrpc: '2.0', id: c.id, result: c.params };
  }
};

let url: string;
let server: http.Server;
test.before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
      const first = Array.isArray(parsed) ? parsed[0]! : parsed;
      if (first.method === 'slow') return; // never answered: the client's timeout
      if (first.method === 'hangUp') return req.socket.destroy();
      if (first.method === 'busy') {
        res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '0' });
        return res.end('slow down');
      }
      if (first.method === 'broken') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: first.id, error: { code: -32603, message: 'internal' } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answerTo) : answerTo(parsed)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc?key=k`;
});
test.after.always(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

// Only `slow` is about the timeout; the others get one that a loaded machine's first request never meets.
const clients = (target: string, batch: boolean, timeout = 10_000) =>
  [undefined, jsonRpcFetch].map((fetchFn) =>
    createPublicClient({
      transport: httpTransport(target, {
        retryCount: 0,
        timeout,
        ...(batch ? { batch: { batchSize: 100, wait: 0 } } : {}),
        ...(fetchFn ? { fetchFn } : {}),
      }),
    }),
  );

/** What a request came to: its result, or its error's class and the fields callers read. */
async function outcome(p: Promise<unknown>) {
  try {
    return { result: await p };
  } catch (err) {
    const e = err as { name: string; code?: number; status?: number; details?: string; shortMessage?: string };
    return { name: e.name, code: e.code, status: e.status, details: e.details, shortMessage: e.shortMessage };
  }
}

for (const batch of [false, true])
  for (const method of ['ok', 'echo', 'reverted', 'broken', 'busy', 'slow', 'hangUp'])
    test(`${method}${batch ? ' in a batch' : ''}: the same answer through fetch and through node:http`, async (t) => {
      const [viaFetch, viaNode] = clients(url, batch, method === 'slow' ? 300 : undefined);
      const ask = (c: typeof viaFetch) => outcome(c!.request({ method, params: ['0x01'] } as never));
      const [expected, actual] = await Promise.all([ask(viaFetch), ask(viaNode)]);
      if (method === 'hangUp') {
        t.is(actual.name, 'HttpRequestError');
        t.deepEqual({ ...actual, details: undefined }, { ...expected, details: undefined });
      } else t.deepEqual(actual, expected);
      t.true(method === 'ok' || method === 'echo' ? 'result' in actual : 'name' in actual, JSON.stringify(actual));
    });

test('a refused connection is the same HttpRequestError through fetch and through node:http', async (t) => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const [viaFetch, viaNode] = clients(`http://127.0.0.1:${port}`, false);
  const expected = await outcome(viaFetch!.request({ method: 'ok' } as never));
  const actual = await outcome(viaNode!.request({ method: 'ok' } as never));
  t.is(actual.name, 'HttpRequestError');
  t.deepEqual({ ...actual, details: undefined }, { ...expected, details: undefined });
});
