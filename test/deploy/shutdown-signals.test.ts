import test from 'ava';
import { startWorld, type World } from '../support/world.js';
import net from 'node:net';
import { rslDocument } from '../../src/devnet/https-origin.js';
import { startServiceCommand } from '../support/service-command.js';

// SIGTERM as a container runtime sends it, to node itself, to `npm start` (npm → node, the shell
// replaced by exec), or to the whole process group: each time the service stops accepting
// connections, answers the request it is in the middle of receiving, says not ready to anything
// else on that connection, and exits 0, leaving no node process behind.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The test world with no service: each test starts the entry point its own way.
let w: World;
test.before(async () => {
  w = await startWorld({ service: false, logLevel: 'info', tmpPrefix: 'rights-signals-' });
});
test.after.always(async () => {
  await w?.close();
});

const start = (how: 'node' | 'npm') =>
  startServiceCommand(how, {
    ...process.env,
    ...w.env,
    METRICS_LISTEN: 'off',
    SHUTDOWN_GRACE_MS: '8000',
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function drainsAndExits(
  t: import('ava').ExecutionContext,
  how: 'node' | 'npm',
  target: 'node' | 'npm' | 'group',
) {
  const s = await start(how);
  t.teardown(s.kill);
  if (how === 'npm') t.not(s.nodePid, s.child.pid, 'npm runs node as its child');
  const { port } = new URL(s.url);
  const body = JSON.stringify({
    resource: 'https://pub.example/a',
    purpose: 'ai-input',
    xml: rslDocument({ url: '/', permits: ['ai-input'] }),
  });

  // A request in flight: headers and the first bytes of the body sent, the rest withheld.
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (d: string) => {
    received += d;
  });
  const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    'POST /v1/rights/inspect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
  );
  await sleep(300);

  if (target === 'node') process.kill(s.nodePid, 'SIGTERM');
  else if (target === 'npm') process.kill(s.child.pid!, 'SIGTERM');
  else process.kill(-s.child.pid!, 'SIGTERM');
  for (let i = 0; i < 50 && !s.output().includes('stopping: draining'); i++) await sleep(100);
  t.true(s.output().includes('stopping: draining'), s.output());

  // No new connection is accepted while draining.
  await t.throwsAsync(fetch(`${s.url}/healthz`), undefined, 'a new connection is refused');

  // The request in flight completes; a request pipelined behind it learns the service is not ready.
  socket.write(`${body.slice(20)}GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await socketClosed;
  const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  t.deepEqual(statuses, [200, 503], received);
  t.true(received.includes('"kind":"inspection"'));

  t.is(await s.exited, 0, s.output());
  for (let i = 0; i < 50 && alive(s.nodePid); i++) await sleep(100);
  t.false(alive(s.nodePid), 'no node process left running');
  t.regex(s.output(), /"msg":"stopped"/);
}

test.serial('SIGTERM to node: drain, finish the request in flight, exit 0', (t) => drainsAndExits(t, 'node', 'node'));
test.serial('SIGTERM to `npm start`: npm passes it to node, which drains and exits 0; npm exits 0', (t) =>
  drainsAndExits(t, 'npm', 'npm'),
);
test.serial('SIGTERM to the process group of `npm start`: one drain despite the second signal, exit 0', (t) =>
  drainsAndExits(t, 'npm', 'group'),
);
