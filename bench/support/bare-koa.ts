// The ceiling for bench:http: a bare Koa app answering a 1 KB JSON body, in its own process like the
// service, so both pay the same process and loopback costs. Prints `{"url": …}` once listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const body = { ok: true, padding: 'x'.repeat(1000) };
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
