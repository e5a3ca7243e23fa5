import test from 'ava';
import net from 'node:net';
import { useFastWorld } from '../support/fast-world.js';

// README: "Errors are always {"error": {"code", "message", "details"}}" — also for what the router
// and Node's HTTP parser refuse before any route runs (docs/wire.md §6).

// The service's public app as composed and served (test/README.md, Worlds), Node's parser refusals included.
const w = useFastWorld();

/** Writes raw bytes and reads the whole answer (the server closes the connection). */
function raw(request: string): Promise<{ status: number; headers: string; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(w.url).port), '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (c) => {
      data += c.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]),
        headers: head ?? '',
        body: JSON.parse(rest.join('\r\n\r\n')),
      });
    });
  });
}

test('an unsupported method on a route answers 405 with the error body and Allow', async (t) => {
  const res = await fetch(`${w.url}/v1/rights/inspect`);
  t.is(res.status, 405);
  t.regex(res.headers.get('allow') ?? '', /POST/);
  const body = (await res.json()) as any;
  t.is(body.error.code, 'METHOD_NOT_ALLOWED');
  t.regex(body.error.details.allow, /POST/);
});

test('a method the service does not implement answers 501 with the error body', async (t) => {
  const res = await raw(`PROPFIND /v1/rights/inspect HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  t.is(res.status, 501);
  t.is(res.body.error.code, 'METHOD_NOT_IMPLEMENTED');
});

test('oversized headers answer 431 with the error body', async (t) => {
  const res = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
  t.is(res.status, 431);
  t.regex(res.headers, /content-type: application\/json/i);
  t.is(res.body.error.code, 'HEADERS_TOO_LARGE');
  t.false(JSON.stringify(res.body).includes('aaaa'), 'nothing of the request is echoed');
});

test('a malformed Content-Length answers 400 with the error body', async (t) => {
  for (const cl of ['abc', '-1', '1, 2']) {
    const res = await raw(`POST /v1/rights/inspect HTTP/1.1\r\nHost: x\r\nContent-Length: ${cl}\r\n\r\n{}`);
    t.is(res.status, 400, cl);
    t.is(res.body.error.code, 'BAD_CONTENT_LENGTH', cl);
  }
});

test('a request line that is not HTTP answers 400 with the error body', async (t) => {
  const res = await raw('HELLO THERE\r\n\r\n');
  t.is(res.status, 400);
  t.is(res.body.error.code, 'MALFORMED_HTTP_REQUEST');
});
