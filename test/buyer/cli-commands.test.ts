import test from 'ava';
import http from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_RESOURCES } from '../../src/devnet/demo-site.js';
import { demoWorld, useWorld } from '../support/world.js';
import { BIN, runBuyerCli } from './support/run-cli.js';
import { RefundReason } from '../../streams/refund/events.js';

// The buyer CLI as a user runs it (packages/buyer/bin/rights-preflight.mjs in its own process): help and version,
// a purpose refused before any request, a gate report bought with the default caps, and a refund
// request filed later with the claim the CLI kept, encrypted, in the checkpoint directory.

/** The buyer package's folder (its bin is `bin/rights-preflight.mjs` there). */
const PACKAGE = path.join(path.dirname(BIN), '..');
const run = (args: string[], env: Record<string, string> = {}) => runBuyerCli(args, env);

let dir: string;
let pins: Record<string, string>;
const CHECKPOINT_KEY = '5a'.repeat(32);
const w = useWorld(demoWorld());
test.before(async () => {
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
  if (dir) await rm(dir, { recursive: true, force: true });
});

test(
  '--help prints the usage on stdout and exits 0; ' + '--version prints the buyer package version; no command exits 2',
  async (t) => {
    const help = await run(['--help']);
    t.is(help.code, 0);
    t.regex(help.stdout, /^usage: rights-preflight/);
    t.regex(help.stdout, /refund <purchase_id> --reason/);
    const version = await run(['--version']);
    t.is(version.code, 0);
    t.is(
      version.stdout.trim(),
      (JSON.parse(await readFile(path.join(PACKAGE, 'package.json'), 'utf8')) as { version: string }).version,
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

test('each command has a --help page with examples, as help <command> too; refund lists every reason', async (t) => {
  for (const cmd of ['capabilities', 'quote', 'buy', 'gate', 'verify', 'refund']) {
    const page = await run([cmd, '--help']);
    t.is(page.code, 0, cmd);
    t.regex(page.stdout, new RegExp(`^usage: rights-preflight ${cmd} `), cmd);
    t.regex(page.stdout, /\nexamples:\n {2}\S/, cmd);
    t.deepEqual((await run(['help', cmd])).stdout, page.stdout, cmd);
  }
  const refund = (await run(['refund', '--help'])).stdout;
  for (const reason of Object.keys(RefundReason.keys)) t.regex(refund, new RegExp(`^ {2}${reason} +\\S`, 'm'), reason);
  t.true((await run(['buy', '--help'])).stdout.includes('saved by default'));
  const overview = (await run(['--help'])).stdout;
  t.true(overview.includes(Object.keys(RefundReason.keys).join(' | ')), 'the overview names every reason too');
});

test('a refund reason the service does not know is refused before any request, listing the reasons', async (t) => {
  const r = await run(['refund', 'ab'.repeat(32), '--reason', 'CHANGED_MY_MIND', '--checkpoint-dir', dir], pins);
  t.is(r.code, 2);
  t.regex(
    r.stderr,
    /invalid --reason "CHANGED_MY_MIND": one of NOT_DELIVERED, VERIFICATION_FAILED, CHARGED_INCORRECTLY, OTHER/,
  );
});

test('--json everywhere: one JSON document on stdout, for answers and for failures', async (t) => {
  const caps = await run(['capabilities', '--json'], pins);
  t.is(caps.code, 0);
  t.truthy(JSON.parse(caps.stdout).coverage);
  const quote = await run(['quote', DEMO_RESOURCES.permitted, '--purpose', 'ai-input', '--json'], pins);
  t.is(quote.code, 0, quote.stderr);
  t.is(JSON.parse(quote.stdout).available, true);
  t.is(JSON.parse((await run(['--version', '--json'])).stdout).version.length > 0, true);
  t.regex(JSON.parse((await run(['verify', '--help', '--json'])).stdout).help, /^usage: rights-preflight verify/);
  const usage = await run(['quote', DEMO_RESOURCES.permitted, '--purpose', 'ai-input', '--json'], {
    ...pins,
    BUYER_NETWORK: '',
  });
  t.is(usage.code, 2);
  t.deepEqual(JSON.parse(usage.stdout), { error: { code: 'USAGE', message: 'missing --network or BUYER_NETWORK' } });
  const missing = await run(['verify', path.join(dir, 'nothing.json'), '--key', 'ab'.repeat(32), '--json']);
  t.is(missing.code, 1);
  t.is(JSON.parse(missing.stdout).error.code, 'FAIL');
  const refused = await run(['refund', 'ab'.repeat(32), '--reason', 'OTHER', '--checkpoint-dir', dir, '--json'], pins);
  t.is(refused.code, 1);
  t.regex(JSON.parse(refused.stdout).error.message, /no claim kept/);
});

test.serial('buy without --out saves the paid report to a file it names; verify --json accepts it', async (t) => {
  const cwd = await mkdtemp(path.join(dir, 'cwd-'));
  const buyer = w.devnet.buyers[3]!;
  const r = await runBuyerCli(
    ['buy', DEMO_RESOURCES.permitted, '--purpose', 'ai-index', '--json'],
    { ...pins, BUYER_PRIVATE_KEY: buyer.privateKey },
    90_000,
    cwd,
  );
  t.is(r.code, 0, r.stderr);
  const summary = JSON.parse(r.stdout) as { purchase_id: string; saved: string };
  t.is(summary.saved, `rights-report-${summary.purchase_id.slice(0, 12)}.json`);
  t.true(r.stderr.includes(`saved the signed report to ${path.join(cwd, summary.saved)}`), r.stderr);
  t.deepEqual(await readdir(cwd), [summary.saved]);
  const v = await runBuyerCli(['verify', summary.saved, '--key', pins.BUYER_EVIDENCE_KEY!, '--json'], {}, 60_000, cwd);
  t.is(v.code, 0, v.stderr);
  const verified = JSON.parse(v.stdout) as { ok: boolean; purchase_id: string };
  t.true(verified.ok);
  t.is(verified.purchase_id, summary.purchase_id);
});
