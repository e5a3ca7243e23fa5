import test from 'ava';
import { Writable } from 'node:stream';
import { createApp } from '../../src/http/app.js';
import { chainAnswers, createReadiness } from '../../src/http/readiness.js';
import { createLogger } from '../../src/log.js';
import { startTcpRelay } from '../support/tcp-relay.js';
import { listen } from '../support/listen.js';
import { moneyWorld } from '../support/money-env.js';
import { dropSchema, freshSchemaName, withSchema } from '../store/fixtures/store-under-test.js';

// /readyz: 503 while starting, ready once started, 503 when a dependency stops answering and again
// ready when it is back, and 503 from the moment draining begins.

const quiet = () =>
  createLogger(
    'silent',
    new Writable({
      write(_c, _e, cb) {
        cb();
      },
    }),
  );

const serve = async (app: ReturnType<typeof createApp>) => {
  const l = await listen(app);
  return { url: l.base, close: l.close };
};

test('readiness states: starting 503, ready 200, a failing or silent probe 503, draining 503', async (t) => {
  let storeUp = true;
  let silent = false;
  const readiness = createReadiness(
    [
      async () => {
        if (!storeUp) throw new Error('store down');
      },
      () => (silent ? new Promise(() => {}) : Promise.resolve()),
    ],
    200,
  );
  const s = await serve(createApp({ log: quiet(), ready: () => readiness.ready(), routers: [] }));
  t.teardown(s.close);
  const status = async () => (await fetch(`${s.url}/readyz`)).status;
  t.is(await status(), 503, 'starting');
  readiness.markReady();
  t.is(await status(), 200);
  storeUp = false;
  t.is(await status(), 503, 'store probe fails');
  storeUp = true;
  silent = true;
  t.is(await status(), 503, 'a probe that never answers times out');
  silent = false;
  t.is(await status(), 200);
  readiness.markDraining();
  t.is(await status(), 503, 'draining');
  readiness.markReady();
  t.is(await status(), 503, 'draining is final');
  t.is(((await (await fetch(`${s.url}/healthz`)).json()) as { status: string }).status, 'ok', 'liveness unaffected');
});

test('the real service: /readyz goes 503 while the chain RPC does not answer, and back to 200', async (t) => {
  const w = await moneyWorld();
  t.teardown(() => w.close());
  const rpc = new URL(w.devnet.rpcUrl);
  const relay = await startTcpRelay({ host: rpc.hostname, port: Number(rpc.port) });
  t.teardown(() => relay.close());
  await w.start({ env: { RPC_URL: `http://127.0.0.1:${relay.port}${rpc.pathname}` } });
  const status = async () => (await fetch(`${w.url}/readyz`)).status;
  t.is(await status(), 200);
  relay.cut();
  t.is(await status(), 503);
  relay.restore();
  t.is(await status(), 200);
});

test('the real service on PostgreSQL: /readyz goes 503 while the database does not answer', async (t) => {
  const pgUrl = process.env.PG_TEST_URL;
  if (!pgUrl) {
    if (process.env.CI === 'true') t.fail('PG_TEST_URL is not set; CI must have PostgreSQL');
    else {
      t.log('skipped: PG_TEST_URL is not set (PostgreSQL test database)');
      t.pass();
    }
    return;
  }
  const db = new URL(pgUrl);
  const relay = await startTcpRelay({ host: db.hostname, port: Number(db.port || 5432) });
  t.teardown(() => relay.close());
  const schema = freshSchemaName();
  t.teardown(() => dropSchema(pgUrl, schema));
  const viaRelay = new URL(withSchema(pgUrl, schema));
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(relay.port);
  const w = await moneyWorld({ eventStoreUrl: viaRelay.href });
  t.teardown(() => w.close());
  await w.start();
  const status = async () => (await fetch(`${w.url}/readyz`)).status;
  t.is(await status(), 200);
  relay.cut();
  t.is(await status(), 503);
  relay.restore();
  let back = 503;
  for (let i = 0; i < 40 && back !== 200; i++) {
    back = await status();
    if (back !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  t.is(back, 200, 'ready again once the database answers');
});

test('chainAnswers refuses an endpoint that is not JSON-RPC (the probe can fail)', async (t) => {
  const s = await serve(createApp({ log: quiet(), ready: async () => true, routers: [] }));
  t.teardown(s.close);
  // Rejects (with an Error, or a DOMException when a loaded machine hits the timeout first).
  t.false(
    await chainAnswers(`${s.url}/healthz`)().then(
      () => true,
      () => false,
    ),
  );
});
