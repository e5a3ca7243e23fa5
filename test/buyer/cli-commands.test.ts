import test from 'ava';
import http from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_RESOURCES, startDemoWorld, type DemoWorld } from '../../ops/demo/world.js';
import { BIN, runBuyerCli } from './support/run-cli.js';

// The buyer CLI as a user runs it (bin/rights-preflight.mjs in its own process): help and version,
// a purpose refused before any request, a gate report bought with the default caps, and a refund
// request filed later with the claim the CLI kept, encrypted, in the checkpoint directory.

const ROOT = path.join(path.dirname(BIN), '..');
const run = (args: string[], env: Record<string, string> = {}) => runBuyerCli(args, env);

let w: DemoWorld;
let dir: string;
let pins: Record<string, string>;
const CHECKPOINT_KEY = '5a'.repeat(32);
test.before(async () => {
  w = await startDemoWorld();
  dir = await mkdtemp(path.join(tmpdir(), 'rights-cli-cmds-'));
  pins = {
    RIGHTS_SERVICE_URL: w.url,
    BUYER_NETWORK: w.devnet.network,
    BUYER_ASSET: w.devnet.usdc,
    BUYER_RECIPIENT: w.devnet.payTo,
    BUYER_EVIDENCE_KEY: w.service.evidenceKey.public_key,
    BUYER_CHECKPOINT_KEY: CHECKPOINT_KEY,
  };
});
test.after.always(async () => {
  await w?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test(
  '--help prints the usage on stdout and exits 0; ' + '--version prints the package version; no command exits 2',
  async (t) => {
    const help = await run(['--help']);
    t.is(help.code, 0);
    t.regex(help.stdout, /^usage: rights-preflight/);
    t.regex(help.stdout, /refund <purchase_id> --reason/);
    const version = await run(['--version']);
    t.is(version.code, 0);
    t.is(
      version.stdout.trim(),
      (JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    const none = await run([]);
    t.is(none.code, 2);
    t.regex(none.stderr, /usage:/);
  },
);

test('an invalid --purpose (or --tier) is refused before any request is sent', async (t) => {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const service = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env = { ...pins, RIGHTS_SERVICE_URL: service, BUYER_PRIVATE_KEY: w.devnet.buyers[2]!.privateKey };
  for (const args of [
    ['buy', DEMO_RESOURCES.permitted, '--purpose', 'rag-ingestion'],
    ['quote', DEMO_RESOURCES.permitted, '--purpose', 'AI-INPUT'],
    ['gate', DEMO_RESOURCES.permitted, '--purpose', 'scraping'],
    ['buy', DEMO_RESOURCES.permitted, '--purpose', 'ai-input', '--tier', 'cheap'],
  ]) {
    const r = await run(args, env);
    t.is(r.code, 2, args.join(' '));
    t.regex(r.stderr, /invalid --(purpose|tier)/);
  }
  t.is(requests, 0, 'nothing reached the service');
});

test.serial(
  'gate with the default caps buys one URL at its published price (60 000 > the single-report 50 000)',
  async (t) => {
    const buyer = w.devnet.buyers[0]!;
    const before = await w.devnet.balanceOf(buyer.address);
    const r = await run(['gate', DEMO_RESOURCES.permitted, '--purpose', 'rag-ingestion'], {
      ...pins,
      BUYER_PRIVATE_KEY: buyer.privateKey,
    });
    t.is(r.code, 0, r.stderr + r.stdout);
    t.is(JSON.parse(r.stdout).status, 'delivered');
    t.is(JSON.parse(r.stdout).amount_micro, '60000');
    t.is(await w.devnet.balanceOf(buyer.address), before - 60_000n);
  },
);

test.serial(
  'refund <purchase_id> --reason files a refund request with the claim kept encrypted by buy --checkpoint-dir',
  async (t) => {
    const buyer = w.devnet.buyers[1]!;
    const checkpoints = path.join(dir, 'checkpoints');
    const bought = await run(
      ['buy', DEMO_RESOURCES.permitted, '--purpose', 'ai-input', '--checkpoint-dir', checkpoints],
      { ...pins, BUYER_PRIVATE_KEY: buyer.privateKey },
    );
    t.is(bought.code, 0, bought.stderr);
    const purchaseId = JSON.parse(bought.stdout).purchase_id as string;
    // The checkpoint is gone after delivery; the claim is kept, and only as ciphertext.
    t.deepEqual(
      (await readdir(checkpoints)).filter((f) => f.endsWith('.json')),
      [],
    );
    const kept = await readFile(path.join(checkpoints, 'claims', `${purchaseId}.json`), 'utf8');
    t.false(
      kept.includes('buyer-checkpoint-v1') || kept.includes('"flow"'),
      'sealed, not the checkpoint in plain JSON',
    );

    const missingReason = await run(['refund', purchaseId, '--checkpoint-dir', checkpoints], pins);
    t.is(missingReason.code, 2);
    const filed = await run(
      ['refund', purchaseId, '--reason', 'OTHER', '--message', 'testing the CLI', '--checkpoint-dir', checkpoints],
      pins,
    );
    t.is(filed.code, 0, filed.stderr);
    const view = JSON.parse(filed.stdout);
    t.is(view.purchase_id, purchaseId);
    t.is(view.status, 'requested');
    // Without the kept claim there is nothing to authorize a request with.
    const unknown = await run(['refund', 'ab'.repeat(32), '--reason', 'OTHER', '--checkpoint-dir', checkpoints], pins);
    t.is(unknown.code, 1);
    t.regex(unknown.stderr, /no claim kept/);
    // The wrong checkpoint key cannot open the kept claim.
    const wrongKey = await run(['refund', purchaseId, '--reason', 'OTHER', '--checkpoint-dir', checkpoints], {
      ...pins,
      BUYER_CHECKPOINT_KEY: '11'.repeat(32),
    });
    t.is(wrongKey.code, 1);
    for (const out of [bought, filed]) t.false((out.stdout + out.stderr).includes(kept.slice(0, 20)));
  },
);
