import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DECLARED, moneyWorld, type MoneyWorld } from '../support/money-env.js';

// The buyer as a package, as a third party gets it: `npm pack` (which builds dist/), the tarball
// installed into a fresh project, and a plain-Node script of that project (no tsx, no TypeScript)
// that imports `rights-preflight/buyer` and `rights-preflight/buyer/node` and buys a report from a
// running service on the devnet. A TypeScript file of the project type-checks against the shipped
// declarations.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

const CONSUMER_JS = `
import { createBuyer, verifySavedReport } from 'rights-preflight/buyer';
import { fileCheckpointStore } from 'rights-preflight/buyer/node';
import { privateKeyToAccount } from 'viem/accounts';
const e = process.env;
const buyer = createBuyer({
  baseUrl: e.SERVICE_URL,
  account: privateKeyToAccount(e.BUYER_KEY),
  pins: { network: e.PIN_NETWORK, asset: e.PIN_ASSET, recipient: e.PIN_RECIPIENT, evidenceKey: e.PIN_KEY },
  maxPerReportMicro: 50_000n, maxPerTaskMicro: 100_000n,
  checkpointStore: fileCheckpointStore('./checkpoints', new Uint8Array(32).fill(7)),
});
const r = await buyer.buyReport({ resource: e.RESOURCE, purpose: 'ai-input', tier: 'fresh' });
const verified = r.status === 'delivered' ? verifySavedReport(r.saved, e.PIN_KEY) : null;
console.log(JSON.stringify({ status: r.status, verified }));
`;

const CONSUMER_TS = `
import { createBuyer, memoryCheckpointStore, type BuyResult } from 'rights-preflight/buyer';
import { fileCheckpointStore } from 'rights-preflight/buyer/node';
const store = fileCheckpointStore('./checkpoints', new Uint8Array(32));
export type Delivered = Extract<BuyResult, { status: 'delivered' }>['transaction'];
export const make = () =>
  createBuyer({
    baseUrl: 'https://x',
    account: undefined as never,
    pins: { network: 'eip155:8453', asset: '0x', recipient: '0x', evidenceKey: 'ab' },
    maxPerReportMicro: 1n,
    maxPerTaskMicro: 1n,
    checkpointStore: store ?? memoryCheckpointStore(),
  });
`;

// Serial steps, each one a test: a pack plus a fresh install takes a minute or two, and AVA's
// inactivity timeout is reset by each finished test.
let w: MoneyWorld;
let work = '';
let project = '';
test.before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'rights-buyer-pkg-'));
  project = path.join(work, 'consumer');
});
test.after.always(async () => {
  await w?.close();
  await rm(work, { recursive: true, force: true });
});

test.serial('npm pack builds dist/ and packs the buyer with its declarations', async (t) => {
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT, maxBuffer: 1 << 24 });
  const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'));
  t.truthy(tarball, packed.stdout);
  const { stdout } = await run('tar', ['-tzf', path.join(work, tarball!)]);
  for (const f of [
    'package/dist/src/buyer/index.js',
    'package/dist/src/buyer/index.d.ts',
    'package/dist/src/buyer/node/index.js',
    'package/dist/src/buyer/node/index.d.ts',
  ])
    t.true(stdout.includes(f), f);
  t.false(stdout.includes('package/test/'), 'tests are not shipped');
});

test.serial('the tarball installs into a fresh project', async (t) => {
  const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'));
  await run('mkdir', [project]);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', path.join(work, tarball!)],
    { cwd: project, maxBuffer: 1 << 24 },
  );
  t.truthy((await readdir(path.join(project, 'node_modules/rights-preflight/dist'))).length);
});

test.serial('a TypeScript file of the project type-checks against the shipped declarations', async (t) => {
  await writeFile(path.join(project, 'types.ts'), CONSUMER_TS);
  await writeFile(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        types: [],
        skipLibCheck: true,
      },
      files: ['types.ts'],
    }),
  );
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const typed = await run(process.execPath, [tsc, '-p', '.'], { cwd: project }).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );
  t.is(typed.code, 0, typed.stdout);
  // The check can fail: a wrong use of the buyer's types is an error.
  await writeFile(
    path.join(project, 'types.ts'),
    `${CONSUMER_TS}\nexport const wrong: BuyResult = { status: 'bought' };\n`,
  );
  const wrong = await run(process.execPath, [tsc, '-p', '.'], { cwd: project }).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );
  t.not(wrong.code, 0);
});

test.serial('a plain Node script of the project buys and verifies a report with the installed buyer', async (t) => {
  await writeFile(path.join(project, 'buy.mjs'), CONSUMER_JS);
  w = await moneyWorld();
  const service = await w.start();
  const buyer = w.devnet.buyers[1]!;
  const before = await w.devnet.balanceOf(buyer.address);
  const { stdout } = await run(process.execPath, ['buy.mjs'], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      SERVICE_URL: service.url,
      BUYER_KEY: buyer.privateKey,
      RESOURCE: DECLARED,
      PIN_NETWORK: w.devnet.network,
      PIN_ASSET: w.devnet.usdc,
      PIN_RECIPIENT: w.devnet.payTo,
      PIN_KEY: service.evidenceKey.public_key,
    },
  });
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  t.is(result.status, 'delivered', stdout);
  t.true(result.verified.ok, stdout);
  t.is(await w.devnet.balanceOf(buyer.address), before - 20_000n);
});
