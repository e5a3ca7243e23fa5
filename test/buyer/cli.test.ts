import test from 'ava';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoWorld, useWorld } from '../support/world.js';
import { buyerFor } from './support/buyer-world.js';
import { runBuyerCli } from './support/run-cli.js';

const run = (args: string[], env: Record<string, string> = {}) => runBuyerCli(args, env, 60_000);

let dir: string;
let key: string;
let savedA: any;
let savedB: any;
const w = useWorld(demoWorld());
test.before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rights-cli-'));
  key = w.service.evidenceKey.public_key;
  const b = buyerFor(w, { buyerIndex: 0 });
  const a = await b.buyer.buyReport({
    resource: 'https://open.demo.example/articles/climate',
    purpose: 'ai-input',
    tier: 'fresh',
  });
  const c = await b.buyer.buyReport({
    resource: 'https://closed.demo.example/articles/markets',
    purpose: 'ai-input',
    tier: 'fresh',
  });
  if (a.status !== 'delivered' || c.status !== 'delivered') throw new Error('setup purchases were not delivered');
  savedA = a.saved;
  savedB = c.saved;
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const write = async (name: string, value: unknown) => {
  const f = path.join(dir, name);
  await writeFile(f, JSON.stringify(value));
  return f;
};
const clone = (v: unknown) => JSON.parse(JSON.stringify(v));

test('verify accepts a delivered report (exit 0)', async (t) => {
  const r = await run(['verify', await write('ok.json', savedA), '--key', key]);
  t.is(r.code, 0, r.stderr);
  t.regex(
    r.stdout,
    /^OK purchase [0-9a-f]{64}: https:\/\/open\.demo\.example\/articles\/climate PERMITTED_BY_OBSERVED_DECLARATION/,
  );
});

const tampered: [string, (s: any) => void, RegExp][] = [
  [
    'a changed signed payload',
    (s) => {
      s.response.evidence.payload.purpose = 'ai-train';
    },
    /evidence signature does not verify/,
  ],
  [
    'a changed report',
    (s) => {
      s.response.report.resources[0].classification = 'PROHIBITED_BY_OBSERVED_DECLARATION';
    },
    /report digest|differs from the signed evidence/,
  ],
  [
    'a wrong transaction hash',
    (s) => {
      s.response.payment_settlement.transaction = `0x${'1'.repeat(64)}`;
    },
    /transaction hash differs/,
  ],
  [
    "a mismatched binding (another purchase's offer)",
    (s) => {
      s.offer_receipt = clone(savedB.offer_receipt);
    },
    /binding mismatch/,
  ],
  [
    'a mismatched binding nonce',
    (s) => {
      s.binding.nonce = `0x6163717075627631${'2'.repeat(48)}`;
    },
    /binding mismatch/,
  ],
];
for (const [what, edit, reason] of tampered) {
  test(`verify rejects ${what} (exit 1 with the reason)`, async (t) => {
    const s = clone(savedA);
    edit(s);
    const r = await run(['verify', await write(`${what.replace(/\W+/g, '-')}.json`, s), '--key', key]);
    t.is(r.code, 1);
    t.regex(r.stderr, /^FAIL: /);
    t.regex(r.stderr, reason);
  });
}

test('verify rejects the right report under a wrong key (exit 1)', async (t) => {
  const r = await run(['verify', await write('wrong-key.json', savedA), '--key', 'ab'.repeat(32)]);
  t.is(r.code, 1);
  t.regex(r.stderr, /FAIL: evidence signature does not verify with the pinned key/);
});

test.serial(
  'buy through the CLI prints progress, saves a report that verify accepts, and the chain shows the transfer',
  async (t) => {
    const buyer = w.devnet.buyers[1]!;
    const out = path.join(dir, 'bought.json');
    const before = await w.devnet.balanceOf(buyer.address);
    const r = await run(
      ['buy', 'https://licensed.demo.example/articles/research', '--purpose', 'ai-input', '--out', out],
      {
        RIGHTS_SERVICE_URL: w.url,
        BUYER_PRIVATE_KEY: buyer.privateKey,
        BUYER_NETWORK: w.devnet.network,
        BUYER_ASSET: w.devnet.usdc,
        BUYER_RECIPIENT: w.devnet.payTo,
        BUYER_EVIDENCE_KEY: key,
      },
    );
    t.is(r.code, 0, r.stderr);
    for (const step of ['[quote]', '[offer.ok]', '[signed]', '[checkpoint.saved]', '[send]', '[delivered]'])
      t.true(r.stderr.includes(step), step);
    t.false(r.stderr.includes(buyer.privateKey.slice(2, 20)));
    const summary = JSON.parse(r.stdout);
    t.is(summary.classifications[0].classification, 'LICENSE_REQUIRED');
    t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);
    t.true((await readFile(out, 'utf8')).includes('rights-preflight-saved-report-v1'));
    const v = await run(['verify', out, '--key', key]);
    t.is(v.code, 0, v.stderr);
    const caps = await run(['capabilities', '--service', w.url]);
    t.is(caps.code, 0);
    t.is(JSON.parse(caps.stdout).evidence.keys[0].public_key, key);
  },
);

test.serial(
  'gate through the CLI buys one ingestion-gate report for two URLs, and verify accepts the saved file',
  async (t) => {
    const buyer = w.devnet.buyers[2]!;
    const out = path.join(dir, 'gate.json');
    const before = await w.devnet.balanceOf(buyer.address);
    const r = await run(
      [
        'gate',
        'https://open.demo.example/articles/oceans',
        'https://closed.demo.example/articles/markets',
        '--purpose',
        'summarization',
        '--out',
        out,
      ],
      {
        RIGHTS_SERVICE_URL: w.url,
        BUYER_PRIVATE_KEY: buyer.privateKey,
        BUYER_NETWORK: w.devnet.network,
        BUYER_ASSET: w.devnet.usdc,
        BUYER_RECIPIENT: w.devnet.payTo,
        BUYER_EVIDENCE_KEY: key,
        BUYER_MAX_PER_REPORT_MICRO: '80000',
        BUYER_MAX_PER_TASK_MICRO: '80000',
      },
    );
    t.is(r.code, 0, r.stderr);
    for (const step of ['[gate]', '[signed-in]', '[offer.ok]', '[checkpoint.saved]', '[delivered]'])
      t.true(r.stderr.includes(step), step);
    t.deepEqual(
      JSON.parse(r.stdout).classifications.map((c: any) => c.classification),
      ['PERMITTED_BY_OBSERVED_DECLARATION', 'PROHIBITED_BY_OBSERVED_DECLARATION'],
    );
    t.is(await w.devnet.balanceOf(buyer.address), before - 80_000n);
    const v = await run(['verify', out, '--key', key]);
    t.is(v.code, 0, v.stderr);
    t.regex(
      v.stdout,
      new RegExp(
        /open\.demo\.example\/articles\/oceans PERMITTED_BY_OBSERVED_DECLARATION, /.source +
          /https:\/\/closed\.demo\.example\/articles\/markets PROHIBITED/.source,
      ),
    );
    const saved = JSON.parse(await readFile(out, 'utf8'));
    saved.response.report.resources.reverse();
    saved.response.evidence.payload.resources.reverse();
    const bad = await run(['verify', await write('gate-reordered.json', saved), '--key', key]);
    t.is(bad.code, 1);
    t.regex(bad.stderr, /^FAIL: /);
  },
);
