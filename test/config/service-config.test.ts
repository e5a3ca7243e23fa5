import test from 'ava';
import { ConfigError, loadConfig, serviceConfig } from '../../src/config/config.js';

// config.ts is the one place that checks settings: when the development devnet is started, and what
// a service needs of its chain (the operator tools load the same configuration and need no chain).

const RPC = 'http://127.0.0.1:8545';
const PAY_TO = `0x${'11'.repeat(20)}` as const;
const RELAYER = `0x${'22'.repeat(32)}` as const;

test(
  'the devnet is wanted only in development without RPC_URL, ' + 'and never forced into production or beside RPC_URL',
  (t) => {
    t.is(loadConfig({}).devnet, 'auto');
    t.is(loadConfig({ RPC_URL: RPC }).devnet, 'off');
    t.is(loadConfig({ NODE_ENV: 'production' }).devnet, 'off');
    t.is(loadConfig({ DEVNET: 'off' }).devnet, 'off');
    t.throws(() => loadConfig({ NODE_ENV: 'production', DEVNET: 'auto' }), {
      instanceOf: ConfigError,
      message: /DEVNET/,
    });
    t.throws(() => loadConfig({ RPC_URL: RPC, DEVNET: 'auto' }), { instanceOf: ConfigError, message: /DEVNET/ });
  },
);

test(
  'operator tools load a configuration without a chain; ' +
    'a service needs RPC_URL, PAY_TO and (self) RELAYER_PRIVATE_KEY',
  (t) => {
    const off = loadConfig({ DEVNET: 'off' });
    t.is(off.rpcUrl, undefined);
    t.throws(() => serviceConfig(off), { instanceOf: ConfigError, message: /RPC_URL/ });
    t.throws(() => serviceConfig(loadConfig({ RPC_URL: RPC })), { instanceOf: ConfigError, message: /PAY_TO/ });
    t.throws(() => serviceConfig(loadConfig({ RPC_URL: RPC, PAY_TO: PAY_TO })), {
      instanceOf: ConfigError,
      message: /RELAYER_PRIVATE_KEY/,
    });
    t.is(
      serviceConfig(
        loadConfig({ RPC_URL: RPC, PAY_TO: PAY_TO, SETTLEMENT: 'facilitator', FACILITATOR_URL: 'http://127.0.0.1:9' }),
      ).rpcUrl,
      RPC,
    );
  },
);

test('the devnet fills only what the environment leaves out', (t) => {
  const devnet = {
    rpcUrl: 'http://127.0.0.1:9999',
    payTo: `0x${'33'.repeat(20)}` as const,
    relayerPrivateKey: RELAYER,
  };
  const filled = serviceConfig(loadConfig({}), devnet);
  t.is(filled.rpcUrl, devnet.rpcUrl);
  t.is(filled.payTo, devnet.payTo);
  t.is(filled.relayerPrivateKey, '22'.repeat(32));
  const own = serviceConfig(loadConfig({ PAY_TO: PAY_TO, RELAYER_PRIVATE_KEY: `0x${'44'.repeat(32)}` }), devnet);
  t.is(own.payTo, PAY_TO);
  t.is(own.relayerPrivateKey, '44'.repeat(32));
});

test('loadConfig names every wrong variable at once; the first is `variable`', (t) => {
  const err = t.throws(
    () =>
      loadConfig({
        PORT: '70000',
        PAY_TO: 'nope',
        OPERATOR_LISTEN: '0.0.0.0:8403',
        NODE_ENV: 'production',
        DEVNET: 'auto',
        SETTLEMENT: 'facilitator',
      }),
    { instanceOf: ConfigError },
  );
  t.deepEqual(err?.problems.map((p) => p.variable).sort(), [
    'DEVNET',
    'FACILITATOR_URL',
    'OPERATOR_LISTEN',
    'PAY_TO',
    'PORT',
  ]);
  t.is(err?.message.split('\n').length, 5, 'one line per problem');
  t.true(err!.problems.some((p) => p.variable === err!.variable));
});

test('a service refuses a zero PAY_TO (anywhere) and names every missing chain setting at once', (t) => {
  const zero = `0x${'0'.repeat(40)}`;
  t.throws(() => serviceConfig(loadConfig({ RPC_URL: RPC, PAY_TO: zero, RELAYER_PRIVATE_KEY: RELAYER })), {
    instanceOf: ConfigError,
    message: /PAY_TO must not be the zero address/,
  });
  t.throws(() => serviceConfig(loadConfig({ NODE_ENV: 'production', RPC_URL: RPC, RELAYER_PRIVATE_KEY: RELAYER })), {
    message: /PAY_TO is required in production/,
  });
  const all = t.throws(() => serviceConfig(loadConfig({ DEVNET: 'off' })), { instanceOf: ConfigError });
  t.deepEqual(
    all?.problems.map((p) => p.variable),
    ['RPC_URL', 'PAY_TO', 'RELAYER_PRIVATE_KEY'],
  );
});

test('REFUND_SENDERS: a comma-separated address list, empty by default', (t) => {
  t.deepEqual(loadConfig({}).refundSenders, []);
  t.deepEqual(loadConfig({ REFUND_SENDERS: `${PAY_TO}, 0x${'ab'.repeat(20)}` }).refundSenders, [
    PAY_TO,
    `0x${'ab'.repeat(20)}`,
  ]);
  t.throws(() => loadConfig({ REFUND_SENDERS: `${PAY_TO},0x12` }), { message: /REFUND_SENDERS/ });
});

test('RELAYER_PRIVATE_KEYS is a pool of keys, never beside RELAYER_PRIVATE_KEY; RELAYER_MIN_SETTLEMENTS 10', (t) => {
  const k1 = `0x${'AB'.repeat(32)}`;
  const k2 = 'cd'.repeat(32);
  const pooled = serviceConfig(loadConfig({ RPC_URL: RPC, PAY_TO, RELAYER_PRIVATE_KEYS: ` ${k1} ,${k2},${k2}` }));
  t.deepEqual(pooled.relayerPrivateKeys, ['ab'.repeat(32), k2], 'normalized, duplicates dropped');
  t.is(pooled.relayerPrivateKey, undefined);
  t.is(pooled.relayerMinSettlements, 10);
  t.is(loadConfig({ RELAYER_MIN_SETTLEMENTS: '3' }).relayerMinSettlements, 3);
  const bad = t.throws(() => loadConfig({ RELAYER_PRIVATE_KEYS: `${k2},nope` }), {
    instanceOf: ConfigError,
    message: /RELAYER_PRIVATE_KEYS/,
  });
  t.false(JSON.stringify(bad?.problems).includes(k2), 'the good key is not repeated in the error');
  t.throws(() => loadConfig({ RELAYER_PRIVATE_KEY: RELAYER, RELAYER_PRIVATE_KEYS: k2 }), {
    instanceOf: ConfigError,
    message: /RELAYER_PRIVATE_KEYS.*RELAYER_PRIVATE_KEY/,
  });
  t.throws(() => loadConfig({ RELAYER_MIN_SETTLEMENTS: '0' }), { instanceOf: ConfigError });
  // The devnet's relayer does not replace a configured pool.
  const devnet = { rpcUrl: RPC, payTo: PAY_TO, relayerPrivateKey: RELAYER };
  t.is(serviceConfig(loadConfig({ RELAYER_PRIVATE_KEYS: k2 }), devnet).relayerPrivateKey, undefined);
});
