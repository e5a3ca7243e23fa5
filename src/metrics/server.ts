import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

// GET /metrics on its own listener (METRICS_LISTEN, loopback by default), never on the public port:
// the numbers describe the business (purchases, refunds) and are for the operator's scraper only.
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  registry: Registry,
  listen: { host: string; port: number },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType }).end(text);
      },
      (err: unknown) => {
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`metrics collection failed: ${(err as Error).message}\n`);
      },
    );
  });
  server.listen(listen.port, listen.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
