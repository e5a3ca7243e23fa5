import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A plain JSON-RPC-over-HTTP endpoint in front of an in-process EIP-1193 provider (Hardhat's EDR), so
// other processes — a service that is killed and restarted, the buyer CLI, the demo — share one chain.
// Binds loopback only: the devnet's keys are public and it must never be reachable from outside.

export interface Eip1193 {
  request(a: { method: string; params?: unknown[] }): Promise<unknown>;
}
interface RpcCall {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface RpcServer {
  url: string;
  close(): Promise<void>;
}

export async function serveJsonRpc(provider: Eip1193, opts: { host?: string; port?: number } = {}): Promise<RpcServer> {
  const answer = async (call: RpcCall) => {
    const id = call.id ?? null;
    if (typeof call.method !== 'string')
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'invalid request' } };
    try {
      const params = Array.isArray(call.params) ? call.params : [];
      return { jsonrpc: '2.0', id, result: await provider.request({ method: call.method, params }) };
    } catch (err) {
      const e = err as { code?: number; message?: string; data?: unknown };
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: typeof e.code === 'number' ? e.code : -32603,
          message: e.message ?? 'internal error',
          ...(e.data !== undefined ? { data: e.data } : {}),
        },
      };
    }
  };
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' });
      res.end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413);
        res.end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', async () => {
      if (res.writableEnded) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
        return;
      }
      const out = Array.isArray(parsed)
        ? await Promise.all(parsed.map((c) => answer(c as RpcCall)))
        : await answer(parsed as RpcCall);
      res.writeHead(200, { 'content-type': 'application/json' });
      // EDR answers hex strings; a stray bigint (from a wrapper) would otherwise make stringify throw.
      res.end(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
