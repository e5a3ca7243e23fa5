import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A JSON-RPC proxy in front of the devnet that misbehaves in one chosen way, to produce the
// "something was sent but we do not know what became of it" cases for real:
//   dropSendAnswer   forward the first eth_sendRawTransaction, then cut the connection (answer lost)
//   hideReceipts     answer every eth_getTransactionReceipt with null (never confirmed, as if slow)
//   headBehind       answer eth_blockNumber one block behind the node: the newest block's receipts look like
//                    a Flashblocks endpoint's preconfirmed ones (their block is not sealed yet)

export interface FlakyRpc {
  url: string;
  sends: number;
  close(): Promise<void>;
}

export async function flakyRpc(
  target: string,
  mode: 'dropSendAnswer' | 'hideReceipts' | 'headBehind',
): Promise<FlakyRpc> {
  const state = { sends: 0, dropped: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const call = JSON.parse(body) as { id: unknown; method: string };
      if (mode === 'hideReceipts' && call.method === 'eth_getTransactionReceipt') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: null }));
        return;
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      let text = await upstream.text();
      if (mode === 'headBehind' && call.method === 'eth_blockNumber') {
        const head = BigInt((JSON.parse(text) as { result: string }).result);
        text = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: `0x${(head - 1n).toString(16)}` });
      }
      if (call.method === 'eth_sendRawTransaction') {
        state.sends++;
        if (mode === 'dropSendAnswer' && !state.dropped) {
          state.dropped = true;
          req.socket.destroy();
          return;
        }
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get sends() {
      return state.sends;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
