import test from 'ava';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevnetChainProcess, type DevnetChainProcess } from '../../src/devnet/chain-process.js';
import { createSelfSettlement } from '../../src/payment/settlement/self.js';
import { crashAtFromEnv } from '../../src/runtime/crash-points.js';
import { PRICE, nonceFor, offer, pay } from './support/offer.js';

// The devnet runs in its own process (startDevnetChainProcess); a settling process is SIGKILLed by the
// after-submit crash point (TEST_CRASH_AT=after-submit, src/runtime/crash-points.ts) right after its
// transaction reached the node. The chain, asked by another process, shows the payment exactly once,
// and settling the same authorization again moves nothing.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let d: DevnetChainProcess;
test.before(async () => {
  d = await startDevnetChainProcess();
});
test.after.always(async () => {
  await d?.stop();
});

function settleInChild(job: unknown, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/payment/support/settle-child.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stdin.end(JSON.stringify(job));
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; out: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, out })),
  );
}

test.serial('the crash point is on only with NODE_ENV=test AND TEST_CRASH_AT naming a point', (t) => {
  t.truthy(crashAtFromEnv({ NODE_ENV: 'test', TEST_CRASH_AT: 'after-submit' }));
  t.is(crashAtFromEnv({ NODE_ENV: 'production', TEST_CRASH_AT: 'after-submit' }), undefined);
  t.is(crashAtFromEnv({ TEST_CRASH_AT: 'after-submit' }), undefined);
  t.is(crashAtFromEnv({ NODE_ENV: 'test', TEST_CRASH_AT: 'true' }), undefined);
  t.is(crashAtFromEnv({ NODE_ENV: 'test' }), undefined);
});

test.serial(
  'SIGKILL right after submit: the transfer happened once; resettling the same authorization moves nothing',
  async (t) => {
    const buyer = d.buyers[0]!;
    const req = offer(d.payTo);
    const nonce = nonceFor('https://pub.example/articles/one', `crash-${Date.now()}`);
    const payload = await pay(buyer.privateKey, req, nonce);
    const before = await d.balanceOf(buyer.address);
    const job = {
      rpcUrl: d.rpcUrl,
      relayerPrivateKey: d.relayer.privateKey,
      asset: d.usdc,
      payload,
      requirements: req,
    };

    const crashed = await settleInChild(job, { NODE_ENV: 'test', TEST_CRASH_AT: 'after-submit' });
    t.is(crashed.signal, 'SIGKILL', crashed.out);
    t.false(crashed.out.includes('"kind"'), 'it died before returning an outcome');

    // Recovery, in another process: ask the chain, never re-sign.
    const recovery = createSelfSettlement({
      rpcUrl: d.rpcUrl,
      relayerPrivateKey: d.relayer.privateKey,
      network: 'eip155:8453',
      asset: d.usdc,
    });
    t.true(await recovery.authorizationState(buyer.address, nonce));
    const found = await recovery.findTransfer({ payer: buyer.address, nonce });
    t.is(found?.value, BigInt(PRICE));
    t.is(await d.balanceOf(buyer.address), before - BigInt(PRICE));
    t.deepEqual(await recovery.settle(payload as never, req as never), {
      kind: 'failed',
      reason: 'invalid_exact_evm_nonce_already_used',
      reverted: 'simulated',
    });
    t.deepEqual(
      (await d.transfers(buyer.address, d.payTo)).map((x) => x.transaction),
      [found!.transaction],
    );
  },
);

test.serial('the same variable without NODE_ENV=test does nothing: the child settles and exits normally', async (t) => {
  const buyer = d.buyers[1]!;
  const req = offer(d.payTo);
  const payload = await pay(buyer.privateKey, req, nonceFor('https://pub.example/articles/one', `prod-${Date.now()}`));
  const r = await settleInChild(
    { rpcUrl: d.rpcUrl, relayerPrivateKey: d.relayer.privateKey, asset: d.usdc, payload, requirements: req },
    { NODE_ENV: 'production', TEST_CRASH_AT: 'after-submit' },
  );
  t.is(r.signal, null);
  t.is(r.code, 0, r.out);
  t.regex(r.out, /"kind":"success"/);
  t.is((await d.transfers(buyer.address, d.payTo)).length, 1);
});
