import test from 'ava';
import { setDevnetBalance } from '../support/devnet-rpc.js';
import { Writable } from 'node:stream';
import { createApp } from '../../src/http/app.js';
import { chainAnswers, createReadiness } from '../../src/http/readiness.js';
import { ReadinessBody } from '@rights-preflight/wire/contract/readiness.js';
import { isRight } from 'fp-ts/lib/Either.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createLogger } from '../../src/runtime/log.js';
import { quietLogger } from '../support/quiet-logger.js';
import { startTcpRelay } from '../support/tcp-relay.js';
import { listen } from '../support/listen.js';
import { moneyWorld } from '../support/money-env.js';
import { dropSchema, freshSchemaName, withSchema } from '../store/fixtures/store-under-test.js';

// /readyz: 503 while starting, ready once started, 503 when a dependency stops answering (or the
// relayer cannot pay for a settlement) and again ready when it is back, and 503 from the moment
// draining begins; the body names every failing check and each change is logged.

const quiet = quietLogger;

// A bare app (test/README.md, Worlds) for /readyz over probes the test turns on and off, and for an HTTP
// endpoint that is not JSON-RPC; the composed service's readiness is tested on the devnet world below.

const serve = async (app: ReturnType<typeof createApp>) => {
  const l = await listen(app);
  return { url: l.base, close: l.close };
};

test(
  'readiness states: starting 503, ready 200, a failing or silent check 503 naming it, draining 503; ' +
    'each change logged once',
  async (t) => {
    let storeUp = true;
    let silent = false;
    let logged = '';
    const log = createLogger(
      'info',
      new Writable({
        write(c, _e, cb) {
          logged += c.toString();
          cb();
        },
      }),
    );
    const readiness = createReadiness(
      [
        {
          name: 'store',
          probe: async () => {
            if (!storeUp) throw new Error('store down');
          },
        },
        { name: 'chain_rpc', probe: () => (silent ? new Promise(() => {}) : Promise.resolve()) },
      ],
      { timeoutMs: 200, log },
    );
    const s = await serve(createApp({ log: quiet(), ready: () => readiness.ready(), routers: [] }));
    t.teardown(s.close);
    const answer = async () => {
      const res = await fetch(`${s.url}/readyz`);
      const body = await res.json();
      t.true(isRight(ReadinessBody.decode(body)), JSON.stringify(body));
      return { ...(body as ReadinessBody), http: res.status };
    };
    t.like(await answer(), {
      http: 503,
      phase: 'starting',
      failing: [{ check: 'lifecycle', reason: 'starting' }],
    });
    readiness.markReady();
    t.like(await answer(), { http: 200, phase: 'ready', failing: [] });
    t.like(await answer(), { http: 200 });
    storeUp = false;
    t.like(await answer(), { http: 503, phase: 'ready', failing: [{ check: 'store', reason: 'error' }] });
    silent = true;
    t.deepEqual(
      (await answer()).failing,
      [
        { check: 'store', reason: 'error' },
        { check: 'chain_rpc', reason: 'timeout' },
      ],
      'every failing check, not the first',
    );
    storeUp = true;
    t.like(await answer(), { http: 503, failing: [{ check: 'chain_rpc', reason: 'timeout' }] });
    silent = false;
    t.like(await answer(), { http: 200 });
    readiness.markDraining();
    t.like(await answer(), { http: 503, phase: 'draining', failing: [{ check: 'lifecycle', reason: 'draining' }] });
    readiness.markReady();
    t.like(await answer(), { http: 503, phase: 'draining' }, 'draining is final');
    t.is(((await (await fetch(`${s.url}/healthz`)).json()) as { status: string }).status, 'ok', 'liveness unaffected');

    const changes = logged
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; readiness: ReadinessBody })
      .filter((l) => l.msg.startsWith('readiness changed'))
      .map((l) => [l.readiness.status, l.readiness.failing.map((f) => `${f.check}:${f.reason}`).join(',')]);
    t.deepEqual(changes, [
      ['not_ready', 'lifecycle:starting'],
      ['ready', ''],
      ['not_ready', 'store:error'],
      ['not_ready', 'store:error,chain_rpc:timeout'],
      ['not_ready', 'chain_rpc:timeout'],
      ['ready', ''],
      ['not_ready', 'lifecycle:draining'],
    ]);
  },
);

test('the real service: /readyz names relayer_funds while the relayer cannot pay its settlements', async (t) => {
  const w = await moneyWorld();
  t.teardown(() => w.close());
  const poor = generatePrivateKey();
  await w.start({ env: { RELAYER_PRIVATE_KEY: poor } });
  const res = await fetch(`${w.url}/readyz`);
  t.is(res.status, 503);
  t.deepEqual(await res.json(), {
    status: 'not_ready',
    phase: 'ready',
    failing: [{ check: 'relayer_funds', reason: 'insufficient_funds' }],
  });
  t.regex(w.logs(), /relayer_funds: relayer 0x[0-9a-fA-F]{40} holds 0 ETH.*readiness changed: not ready/);
  t.false(w.logs().includes(poor.slice(2)), 'the key itself is never logged');
  await setDevnetBalance(w.devnet.rpcUrl, privateKeyToAccount(poor).address, 10n ** 17n); // 0.1 ETH
  const funded = await fetch(`${w.url}/readyz`);
  t.is(funded.status, 200);
  t.deepEqual(((await funded.json()) as ReadinessBody).failing, []);
  t.regex(w.logs(), /readiness changed: ready/);
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
  const cut = await fetch(`${w.url}/readyz`);
  t.is(cut.status, 503);
  const failing = ((await cut.json()) as ReadinessBody).failing;
  t.true(
    failing.some((f) => f.check === 'chain_rpc'),
    JSON.stringify(failing),
  );
  t.false(JSON.stringify(failing).includes(String(relay.port)), 'no RPC address in the public body');
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
  const cut = await fetch(`${w.url}/readyz`);
  t.is(cut.status, 503);
  t.true(
    ((await cut.json()) as ReadinessBody).failing.some((f) => f.check === 'store'),
    'the body names the store',
  );
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
