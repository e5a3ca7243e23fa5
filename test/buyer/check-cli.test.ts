import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { runBuyerCli } from './support/run-cli.js';

// `rights-preflight check` as a user runs it: a URL file, the pins in the environment, the manifest and the
// reports on disk, the summary on stdout; the reports it saved verify offline with `verify`.

const w = useWorld(demoWorld());
let dir: string;
test.before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rights-check-cli-'));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const pins = () => ({
  RIGHTS_SERVICE_URL: w.url,
  BUYER_NETWORK: w.devnet.network,
  BUYER_ASSET: w.devnet.usdc,
  BUYER_RECIPIENT: w.devnet.payTo,
  BUYER_EVIDENCE_KEY: w.service.evidenceKey.public_key,
  BUYER_PRIVATE_KEY: w.devnet.buyers[0]!.privateKey,
  BUYER_CHECKPOINT_KEY: '3d'.repeat(32),
});

test.serial('check: a URL file in, a manifest, reports that verify offline and a summary out', async (t) => {
  const urls = path.join(dir, 'crawl.txt');
  const manifest = path.join(dir, 'crawl.jsonl');
  await writeFile(
    urls,
    ['# a crawl', DEMO_RESOURCES.permitted, DEMO_RESOURCES.prohibited, 'https://nowhere.example/x', ''].join('\n'),
  );
  const r = await runBuyerCli(
    ['check', urls, '--purpose', 'ai-input', '--budget', '1000000', '--manifest', manifest, '--json'],
    pins(),
  );
  t.is(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as { bought: number; not_bought: Record<string, number>; http_429: number };
  t.is(summary.bought, 2);
  t.deepEqual(summary.not_bought, { ORIGIN_NOT_COVERED: 1 });
  t.is(summary.http_429, 0);
  const lines = (await readFile(manifest, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { url: string; status: string; report_file: string | null });
  const bought = lines.filter((l) => l.status === 'bought');
  t.is(bought.length, 2);
  const v = await runBuyerCli(['verify', path.join(dir, bought[0]!.report_file!), '--key', pins().BUYER_EVIDENCE_KEY]);
  t.is(v.code, 0, v.stdout + v.stderr);
  t.false(`${r.stdout}${r.stderr}`.includes(pins().BUYER_PRIVATE_KEY.slice(2, 18)), 'no secret printed');
});

test('check without --budget is a usage error (exit 2), before any request', async (t) => {
  const r = await runBuyerCli(['check', '-', '--purpose', 'ai-input'], pins());
  t.is(r.code, 2);
  t.regex(r.stderr, /missing --budget/);
});
