import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A reverse proxy on loopback, as nginx's `proxy_add_x_forwarded_for` behaves: every request goes to
// `target` with the peer's address appended to X-Forwarded-For (any value the client sent stays in front).

export interface ForwardingProxy {
  base: string;
  close(): Promise<void>;
}

export async function startForwardingProxy(target: string): Promise<ForwardingProxy> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const before = req.headers['x-forwarded-for'];
    const peer = req.socket.remoteAddress ?? '';
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host, 'x-forwarded-for': before ? `${before}, ${peer}` : peer },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
