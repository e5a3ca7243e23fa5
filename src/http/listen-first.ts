import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody } from './errors.js';
import { namedListenError } from './listen-error.js';

// The public listener is bound before the app is built, so the address it got (PORT=0 picks one) is
// known when the routers and the money path are composed: offers and report URLs name the service's
// base URL, and nothing has to be patched in after the routers exist. Until `serve` hands it the app,
// the listener answers every request 503 (with Retry-After) rather than leaving it unanswered.
//
//   const listener = await listenFirst(8402, '127.0.0.1');  // listener.url: 'http://127.0.0.1:8402'
//   listener.serve(app.callback());

export interface EarlyListener {
  server: http.Server;
  /** http://HOST:PORT of the bound address. */
  url: string;
  serve(handler: http.RequestListener): void;
}

const starting: http.RequestListener = (_req, res) => {
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '1' });
  res.end(JSON.stringify(errorBody('SERVICE_STARTING', 'the service is starting; try again shortly')));
};

/** `setting` names what chose the address, for the error when it cannot be bound. */
export async function listenFirst(port: number, host: string, setting = 'HOST/PORT'): Promise<EarlyListener> {
  const server = http.createServer(starting);
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => reject(namedListenError(err, setting, `${host}:${port}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${bound}`,
    serve(handler) {
      server.off('request', starting);
      server.on('request', handler);
    },
  };
}
