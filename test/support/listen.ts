import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

// A Koa app on a real loopback port for route-level tests, with Node's clientError answered the
// way the service answers it (pass `answerClientError`), and a close that drops kept-alive sockets.

export interface Listening {
  base: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(
  app: Koa,
  onClientError?: (err: Error, socket: import('node:net').Socket) => void,
): Promise<Listening> {
  const server = http.createServer(app.callback());
  if (onClientError) server.on('clientError', onClientError);
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
