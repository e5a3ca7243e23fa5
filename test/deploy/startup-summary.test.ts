import test from 'ava';
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Devnet } from '../../src/devnet/devnet.js';
import { startServiceProcess } from '../support/service-process.js';
import { startWorld, type World } from '../support/world.js';

// A start that explains itself (docs/decisions.md, "The first hour"): one summary line (network, settlement, store,
// coverage, metrics); with the default metrics port taken a development start still starts; every bind failure names
// the setting that chose the address. The real entry point in its own process, as `npm start`.

const DEFAULT_METRICS_PORT = 9464;
let holder: net.Server | undefined;
let world: World | undefined;
let devnet: Devnet;

/** A start that must fail; should it start after all, it is stopped, so no service outlives the test. */
async function failedStart(t: import('ava').ExecutionContext, env: Record<string, string>): Promise<Error | undefined> {
  const started = startServiceProcess(env);
  started.then((s) => s.stop()).catch(() => {});
  return t.throwsAsync(started);
}

/** Holds 9464 on loopback; false when something else holds it now. */
function tryHold(): Promise<net.Server | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(DEFAULT_METRICS_PORT, '127.0.0.1', () => resolve(server));
  });
}

test.before(async () => {
  // This file must hold 9464 itself for its whole run. Another test's development service (the quick start
  // sets nothing, so it takes 9464 when it is free) may hold it for a while and then let it go, which would
  // free the port in the middle of these tests: wait until it is ours.
  for (let waited = 0; !holder && waited < 90_000; waited += 250) {
    holder = await tryHold();
    if (!holder) await new Promise((r) => setTimeout(r, 250));
  }
  if (!holder) throw new Error(`port ${DEFAULT_METRICS_PORT} stayed taken for 90 s`);
  // The chain of the test world; the service is this file's own, started as `npm start` starts it.
  world = await startWorld({ service: false, tmpPrefix: 'rights-startup-world-' });
  devnet = world.devnet;
});
test.after.always(async () => {
  await new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve()));
  await world?.close();
});

async function tempDir(t: import('ava').ExecutionContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rights-startup-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The summary line (written to stderr just before the listening record, on another pipe). */
async function summaryOf(output: () => string): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const line = output()
      .split('\n')
      .find((l) => l.startsWith('rights preflight: '));
    if (line) return line;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

const hex32 = () => randomBytes(32).toString('hex');

/** A production environment on the test devnet (keys given: production never generates one). */
const productionEnv = (dataDir: string): Record<string, string> => ({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  RPC_URL: devnet.rpcUrl,
  PAY_TO: devnet.payTo,
  RELAYER_PRIVATE_KEY: devnet.relayer.privateKey,
  EVIDENCE_KEY: hex32(),
  CHECKPOINT_KEY: hex32(),
  CLAIM_SECRET: hex32(),
});

test.serial(
  'development with 9464 taken still starts, on a free metrics port, and says so in one summary line',
  async (t) => {
    const dataDir = await tempDir(t);
    // METRICS_LISTEN empty is unset; nothing else configures the start (the devnet child supplies the chain).
    const s = await startServiceProcess({ DATA_DIR: dataDir, METRICS_LISTEN: '', RPC_URL: '', NODE_ENV: '' });
    t.teardown(() => s.stop());
    const summary = await summaryOf(s.output);
    if (!summary) return t.fail(s.output());
    t.true(summary.includes(s.url), summary);
    t.regex(summary, /network eip155:8453 \(development devnet\)/);
    t.regex(summary, /settlement self/);
    t.regex(summary, new RegExp(`store embedded \\(${dataDir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    t.regex(summary, /coverage \d+ origins?/);
    const metrics = /metrics (http:\/\/127\.0\.0\.1:(\d+)\/metrics)/.exec(summary);
    if (!metrics) return t.fail(summary);
    t.not(Number(metrics[2]), DEFAULT_METRICS_PORT);
    t.regex(s.output(), /the default metrics port is taken/);
    const res = await fetch(metrics[1]!);
    t.is(res.status, 200);
    t.regex(await res.text(), /^# HELP /m);
  },
);

test.serial('production with 9464 taken fails, naming METRICS_LISTEN', async (t) => {
  const dataDir = await tempDir(t);
  const err = await failedStart(t, { ...productionEnv(dataDir), METRICS_LISTEN: '' });
  t.regex(err!.message, /configuration: METRICS_LISTEN 127\.0\.0\.1:9464 is in use/);
});

test.serial('a taken public port names PORT; a taken operator port names OPERATOR_LISTEN', async (t) => {
  const dataDir = await tempDir(t);
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => taken.close(() => resolve())));
  const port = String((taken.address() as net.AddressInfo).port);
  const onPort = await failedStart(t, { ...productionEnv(dataDir), METRICS_LISTEN: 'off', PORT: port });
  t.regex(onPort!.message, new RegExp(`configuration: PORT 127\\.0\\.0\\.1:${port} is in use`));
  const onOperator = await failedStart(t, {
    ...productionEnv(dataDir),
    METRICS_LISTEN: 'off',
    OPERATOR_LISTEN: `127.0.0.1:${port}`,
    OPERATOR_TOKEN: 'a-long-enough-operator-token',
  });
  t.regex(onOperator!.message, new RegExp(`configuration: OPERATOR_LISTEN 127\\.0\\.0\\.1:${port} is in use`));
});

test.serial('a start without coverage says so', async (t) => {
  const dataDir = await tempDir(t);
  const s = await startServiceProcess({ ...productionEnv(dataDir), METRICS_LISTEN: 'off', COVERED_ORIGINS: '' });
  t.teardown(() => s.stop());
  t.regex((await summaryOf(s.output)) ?? s.output(), /coverage 0 origins \(nothing to sell\)/);
  t.regex(s.output(), /coverage is empty: every quote is refused RESOURCE_NOT_COVERED; set COVERED_ORIGINS/);
  // With a configured chain there is no devnet, so no example publishers and no development buyer settings.
  t.notRegex(s.output(), /demo\.example|EXAMPLES/);
  await t.throwsAsync(access(path.join(dataDir, 'buyer.env')));
});
