import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { ChainTiming } from '../payment/settlement/chain-reads.js';
import { createRelayerFacilitator } from '../payment/settlement/relayer-facilitator.js';
import { warmPaidPath } from '../service/warm-paid-path.js';

// A small real x402 facilitator over HTTP (POST /verify, POST /settle, GET /supported — the x402 v2
// facilitator API, reference/x402.md §3.1) against a devnet: the relayer facilitator the `self` backend
// runs in-process (relayer-facilitator.ts: the @x402/evm exact scheme's checks with one signature recovery
// and one simulation, settlements pipelined through the account's nonce manager), and the official
// @x402/core facilitator's /supported. It is the "remote facilitator" the `facilitator` settlement backend
// talks to in tests, the demo and bench:settle. Its /verify was the SDK's own until the SDK's four sequential
// chain requests per payment, on a devnet sharing the event loop, were most of bench:settle's facilitator
// latency (docs/decisions.md, "A warm paid path"); test/payment/facilitator.test.ts holds the official verify
// to the same answers on our payments. Loopback only; it logs nothing.

export interface FacilitatorServer {
  url: string;
  relayer: Hex;
  close(): Promise<void>;
}

export async function startFacilitatorServer(o: {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: string;
  timing?: ChainTiming;
  port?: number;
}): Promise<FacilitatorServer> {
  const relayer = createRelayerFacilitator({
    rpcUrl: o.rpcUrl,
    relayerPrivateKey: o.relayerPrivateKey,
    network: o.network,
    ...(o.timing ? { timing: o.timing } : {}),
  });
  const f = relayer.facilitator;
  // A remote facilitator is a long-running process: its verify's code is warm when our buyers come.
  await warmPaidPath({
    network: o.network,
    asset: relayer.relayer,
    payTo: relayer.relayer,
    eip712: { name: 'USD Coin', version: '2' },
  });
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/supported') {
      json(res, 200, f.getSupported());
      return;
    }
    if (req.method !== 'POST' || (path !== '/verify' && path !== '/settle')) {
      json(res, 404, { error: 'not found' });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      let body: { paymentPayload?: PaymentPayload; paymentRequirements?: PaymentRequirements };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        json(res, 400, { error: 'invalid JSON' });
        return;
      }
      if (typeof body?.paymentPayload !== 'object' || typeof body?.paymentRequirements !== 'object') {
        json(res, 400, { error: 'paymentPayload and paymentRequirements are required' });
        return;
      }
      try {
        if (path === '/verify') json(res, 200, await relayer.verify(body.paymentPayload, body.paymentRequirements));
        else json(res, 200, (await relayer.settle(body.paymentPayload, body.paymentRequirements)).result);
      } catch (err) {
        json(res, 500, { error: (err as Error).name });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    relayer: relayer.relayer,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
