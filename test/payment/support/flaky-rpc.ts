import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A JSON-RPC proxy in front of the devnet that misbehaves in one chosen way, to produce the
// "something was sent but we do not know what became of it" cases for real:
//   dropSendAnswer   forward the first eth_sendRawTransaction, then cut the connection (answer lost)
//   hideReceipts     answer every eth_getTransactionReceipt with null (never confirmed, as if slow)
//   headBehind       answer eth_blockNumber one block behind the node: the newest block's receipts look like
//                    a Flashblocks endpoint's preconfirmed ones (their block is not sealed yet)
//   latestByDefault  an eth_estimateGas or eth_call without a block is run at `latest`, as go-ethereum does
//                    (Hardhat runs a gas estimate at `pending`): a node whose simulation does not see its own pool
//   passThrough      forward everything as it is
// In every mode it counts what it was asked: receipts per hash, and the heads it answered.

export interface FlakyRpc {
  url: string;
  sends: number;
  /** eth_getTransactionReceipt requests, per hash (lower case). */
  receiptsAsked: Map<string, number>;
  /** Every eth_blockNumber answer forwarded, in order (before `headBehind` changes it). */
  headsAnswered: bigint[];
  close(): Promise<void>;
}

type Call = { id: unknown; method: string; params?: unknown[] };

export async function flakyRpc(
  target: string,
  mode: 'dropSendAnswer' | 'hideReceipts' | 'headBehind' | 'latestByDefault' | 'passThrough',
): Promise<FlakyRpc> {
  const state = { sends: 0, dropped: false };
  const receiptsAsked = new Map<string, number>();
  const headsAnswered: bigint[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let body = Buffer.concat(chunks).toString('utf8');
      // The service batches its reads (JSON-RPC batch: an array); a hidden receipt is answered here, in
      // its place in the batch, and everything else goes upstream.
      const parsed = JSON.parse(body) as Call | Call[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      if (mode === 'latestByDefault') {
        for (const c of calls)
          if ((c.method === 'eth_estimateGas' || c.method === 'eth_call') && (c.params?.length ?? 0) < 2)
            c.params = [c.params?.[0], 'latest'];
        body = JSON.stringify(parsed);
      }
      const call = calls[0]!;
      for (const c of calls) {
        if (c.method !== 'eth_getTransactionReceipt') continue;
        const hash = String(c.params?.[0]).toLowerCase();
        receiptsAsked.set(hash, (receiptsAsked.get(hash) ?? 0) + 1);
      }
      const hides = (c: Call) => mode === 'hideReceipts' && c.method === 'eth_getTransactionReceipt';
      if (calls.some(hides)) {
        const forwarded = calls.filter((c) => !hides(c));
        const answers = forwarded.length
          ? ((await (
              await fetch(target, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(forwarded),
              })
            ).json()) as { id: unknown }[])
          : [];
        const results = calls.map((c) =>
          hides(c) ? { jsonrpc: '2.0', id: c.id, result: null } : answers.find((a) => a.id === c.id),
        );
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(parsed) ? results : results[0]));
        return;
      }
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      let text = await upstream.text();
      if (calls.some((c) => c.method === 'eth_blockNumber')) {
        const answers = JSON.parse(text) as { id: unknown; result?: string } | { id: unknown; result?: string }[];
        for (const a of Array.isArray(answers) ? answers : [answers])
          if (calls.find((c) => c.id === a.id)?.method === 'eth_blockNumber' && a.result)
            headsAnswered.push(BigInt(a.result));
      }
      if (mode === 'headBehind' && calls.some((c) => c.method === 'eth_blockNumber')) {
        // The sealed head one block behind, in its place in a batch too.
        const behind = (c: Call, a: { result: string }) =>
          c.method === 'eth_blockNumber' ? { ...a, result: `0x${(BigInt(a.result) - 1n).toString(16)}` } : a;
        const answers = JSON.parse(text) as { id: unknown; result: string } | { id: unknown; result: string }[];
        text = JSON.stringify(
          Array.isArray(answers)
            ? answers.map((a) => behind(calls.find((c) => c.id === a.id)!, a))
            : behind(call, answers),
        );
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
    receiptsAsked,
    headsAnswered,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
