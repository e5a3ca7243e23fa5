import test from 'ava';
import { ConfigError, loadConfig } from '../../src/config/config.js';

// The deployment settings decode like every other variable: defaults, accepted forms, and a start-up
// error naming the variable for anything else.

test('METRICS_LISTEN, CORS_ORIGINS and SHUTDOWN_GRACE_MS: defaults and accepted forms', (t) => {
  const d = loadConfig({});
  t.deepEqual(d.metricsListen, { host: '127.0.0.1', port: 9464 });
  t.deepEqual(d.corsOrigins, []);
  t.is(d.shutdownGraceMs, 10_000);
  const c = loadConfig({
    METRICS_LISTEN: '[::1]:9100',
    CORS_ORIGINS: 'https://app.example, http://127.0.0.1:5173/',
    SHUTDOWN_GRACE_MS: '0',
  });
  t.deepEqual(c.metricsListen, { host: '::1', port: 9100 });
  t.deepEqual(c.corsOrigins, ['https://app.example', 'http://127.0.0.1:5173']);
  t.is(c.shutdownGraceMs, 0);
  t.is(loadConfig({ METRICS_LISTEN: 'off' }).metricsListen, 'off');
});

test('a wrong deployment setting stops the start, naming the variable', (t) => {
  for (const [name, value] of [
    ['METRICS_LISTEN', '9464'],
    ['METRICS_LISTEN', '127.0.0.1:70000'],
    ['CORS_ORIGINS', 'https://app.example/path'],
    ['CORS_ORIGINS', 'ftp://x.example'],
    ['SHUTDOWN_GRACE_MS', '-1'],
  ] as const) {
    const err = t.throws(() => loadConfig({ [name]: value }), { instanceOf: ConfigError });
    t.is(err?.variable, name, `${name}=${value}`);
  }
  // COVERED_ORIGINS keeps its https-only rule and message.
  t.throws(() => loadConfig({ COVERED_ORIGINS: 'http://pub.example' }), {
    message: /must be an exact https origin like https:\/\/example.com/,
  });
});
