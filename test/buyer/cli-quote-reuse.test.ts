import test from 'ava';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { startProxy, type Proxy } from './support/proxy.js';
import { runBuyerCli } from './support/run-cli.js';

// `buy` after `quote` of the same request buys the quote just made (kept sealed in --checkpoint-dir/quotes)
// instead of asking for another: the service sees one quote request, counted on a proxy in front of it.

const CHECKPOINT_KEY = '5a'.repeat(32);
let dir: string;
let proxy: Proxy;
let pins: Record<string, string>;
const w = useWorld(demoWorld());
test.before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rights-cli-reuse-'));
  proxy = await startProxy(w.url);
  pins = {
    RIGHTS_SERVICE_URL: proxy.url,
    BUYER_NETWORK: w.devnet.network,
    BUYER_ASSET: w.devnet.usdc,
    BUYER_RECIPIENT: w.devnet.payTo,
    BUYER_EVIDENCE_KEY: w.service.evidenceKey.public_key,
    BUYER_CHECKPOINT_KEY: CHECKPOINT_KEY,
  };
});
test.after.always(async () => {
  await proxy?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const quotes = () => proxy.seen.filter((x) => x.method === 'POST' && x.path === '/v1/rights/quote').length;

test.serial('buy uses the fresh quote quote kept for the same request: one quote request in all', async (t) => {
  const checkpoints = path.join(dir, 'kept');
  const args = [DEMO_RESOURCES.permitted, '--purpose', 'ai-input', '--checkpoint-dir', checkpoints];
  const env = { ...pins, BUYER_PRIVATE_KEY: w.devnet.buyers[0]!.privateKey };
  const quoted = await runBuyerCli(['quote', ...args], env, 90_000, dir);
  t.is(quoted.code, 0, quoted.stderr);
  t.regex(quoted.stderr, /kept the quote in .*\/quotes/);
  const before = quotes();
  t.is(before, 1);
  const bought = await runBuyerCli(['buy', ...args, '--out', path.join(dir, 'a.json')], env, 90_000, dir);
  t.is(bought.code, 0, bought.stderr);
  t.is(JSON.parse(bought.stdout).purchase_id, JSON.parse(quoted.stdout).purchase_id, 'the quoted purchase');
  t.is(quotes(), before, 'buy asked for no other quote');
  t.deepEqual(await readdir(path.join(checkpoints, 'quotes')), [], 'a bought quote is not kept');
  // Another tier is another request: quoted anew.
  const deep = await runBuyerCli(
    ['buy', ...args, '--tier', 'deep', '--out', path.join(dir, 'b.json')],
    env,
    90_000,
    dir,
  );
  t.is(deep.code, 0, deep.stderr);
  t.is(quotes(), before + 1);
});
