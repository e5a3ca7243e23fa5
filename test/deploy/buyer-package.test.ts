import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DECLARED, moneyWorld, type MoneyWorld } from '../support/money-env.js';

// The buyer as a package, as a third party gets it (docs/decisions.md, "The buyer as its own package"):
// `npm pack` of packages/buyer (which builds dist/, and the wire package's first) and of packages/wire,
// the wire it imports by name, the two tarballs installed into an empty project with `npm install`, at
// most 15 packages and 40 MB installed; a TypeScript file of the project type-checks under strict tsc
// against the shipped declarations; a plain-Node script of the project (no tsx, no TypeScript, no viem)
// buys a report from a running service on the devnet, and the installed CLI verifies what it saved.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = path.join(ROOT, 'packages/buyer');
const WIRE = path.join(ROOT, 'packages/wire');
const run = promisify(execFile);
const MAX_PACKAGES = 15;
const MAX_BYTES = 40 * 1024 * 1024;

const CONSUMER_JS = `
import { writeFile } from 'node:fs/promises';
import { createBuyer, privateKeyAccount, verifySavedReport } from '@rights-preflight/buyer';
import { fileCheckpointStore } from '@rights-preflight/buyer/node';
const e = process.env;
const buyer = createBuyer({
  baseUrl: e.SERVICE_URL,
  account: privateKeyAccount(e.BUYER_KEY),
  pins: { network: e.PIN_NETWORK, asset: e.PIN_ASSET, recipient: e.PIN_RECIPIENT, evidenceKey: e.PIN_KEY },
  maxPerReportMicro: 50_000n, maxPerTaskMicro: 100_000n,
  checkpointStore: fileCheckpointStore('./checkpoints', new Uint8Array(32).fill(7)),
});
const r = await buyer.buyReport({ resource: e.RESOURCE, purpose: 'ai-input', tier: 'fresh' });
const verified = r.status === 'delivered' ? verifySavedReport(r.saved, e.PIN_KEY) : null;
if (r.status === 'delivered') await writeFile('saved.json', JSON.stringify(r.saved));
console.log(JSON.stringify({ status: r.status, verified }));
`;

const CONSUMER_TS = `
import {
  createBuyer,
  memoryCheckpointStore,
  privateKeyAccount,
  BuyerRefused,
  type BuyResult,
  type BuyerAccount,
} from '@rights-preflight/buyer';
import { fileCheckpointStore } from '@rights-preflight/buyer/node';
const store = fileCheckpointStore('./checkpoints', new Uint8Array(32));
export type Delivered = Extract<BuyResult, { status: 'delivered' }>['transaction'];
const account: BuyerAccount = privateKeyAccount('0x' + '11'.repeat(32));
export const make = () =>
  createBuyer({
    baseUrl: 'https://x',
    account,
    pins: { network: 'eip155:8453', asset: '0x', recipient: '0x', evidenceKey: 'ab' },
    maxPerReportMicro: 1n,
    maxPerTaskMicro: 1n,
    checkpointStore: store ?? memoryCheckpointStore(),
  });
export const refusedCode = (e: unknown) => (e instanceof BuyerRefused ? e.code : undefined);
`;

/** Every installed package: a folder with a package.json under node_modules (scoped and nested too). */
async function installedPackages(nodeModules: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await readdir(nodeModules, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const dirs = e.name.startsWith('@')
      ? (await readdir(path.join(nodeModules, e.name))).map((n) => path.join(nodeModules, e.name, n))
      : [path.join(nodeModules, e.name)];
    for (const dir of dirs) {
      if (!(await stat(path.join(dir, 'package.json')).catch(() => undefined))) continue;
      out.push(dir);
      out.push(...(await installedPackages(path.join(dir, 'node_modules'))));
    }
  }
  return out;
}

async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await bytesUnder(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

const typecheck = (cwd: string) =>
  run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd }).then(
    () => ({ code: 0, stdout: '' }),
    (e: { code: number; stdout: string }) => e,
  );

// Serial steps, each one a test: a pack plus a fresh install takes a minute or two, and AVA's
// inactivity timeout is reset by each finished test.
let w: MoneyWorld | undefined;
let work = '';
let project = '';
let tarball = '';
let wireTarball = '';
test.before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'rights-buyer-pkg-'));
  project = path.join(work, 'consumer');
});
test.after.always(async () => {
  await w?.close();
  await rm(work, { recursive: true, force: true });
});

test.serial('npm pack of packages/buyer builds dist/ and packs the buyer with its declarations and CLI', async (t) => {
  const packed = await run('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: PACKAGE,
    maxBuffer: 1 << 24,
  });
  tarball = path.join(work, (await readdir(work)).find((f) => f.endsWith('.tgz')) ?? '');
  t.true(tarball.endsWith('.tgz'), packed.stdout);
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 1 << 24 });
  // The built buyer reaches the wire by its package name, never by a path into another package.
  const { stdout: index } = await run('tar', ['-xzOf', tarball, 'package/dist/index.js'], { maxBuffer: 1 << 24 });
  t.regex(index, /from '@rights-preflight\/wire\/contract\/check-manifest\.js'/);
  t.notRegex(index, /packages\/wire|\.\.\/wire\//);
  for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/node/index.js', 'dist/node/index.d.ts', 'dist/cli.js'])
    t.true(stdout.includes(`package/${f}`), f);
  t.true(stdout.includes('package/bin/rights-preflight.mjs'));
  t.false(stdout.includes('package/src/'), 'the TypeScript sources are not shipped (the bin would run them)');
  t.false(/package\/(test|ops|streams)\//.test(stdout), 'nothing of the service is shipped');
});

test.serial('npm pack of packages/wire packs the built wire and the shared vectors', async (t) => {
  const wireDir = path.join(work, 'wire');
  await mkdir(wireDir);
  await run('npm', ['pack', '--silent', '--pack-destination', wireDir], { cwd: WIRE, maxBuffer: 1 << 24 });
  wireTarball = path.join(wireDir, (await readdir(wireDir)).find((f) => f.endsWith('.tgz')) ?? '');
  t.true(wireTarball.endsWith('.tgz'));
  const { stdout } = await run('tar', ['-tzf', wireTarball], { maxBuffer: 1 << 24 });
  for (const f of ['dist/contract/quote.js', 'dist/contract/quote.d.ts', 'vectors/binding.json', 'vectors/README.md'])
    t.true(stdout.includes(`package/${f}`), f);
  t.false(stdout.includes('package/src/'), 'the TypeScript sources are not shipped');
});

test.serial('the tarball installs into an empty project: at most 15 packages and 40 MB', async (t) => {
  await mkdir(project);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  const install = (mode: string) =>
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', mode, tarball, wireTarball], {
      cwd: project,
      maxBuffer: 1 << 24,
    });
  // From npm's cache alone when it holds everything (CI has just run `npm ci` with the same pins);
  // otherwise the registry is asked for what the cache lacks.
  await install('--offline').catch(() => install('--prefer-offline'));
  const packages = await installedPackages(path.join(project, 'node_modules'));
  const names = packages.map((p) => path.relative(path.join(project, 'node_modules'), p)).sort();
  t.true(names.includes('@rights-preflight/buyer'), names.join(' '));
  t.true(names.includes('@rights-preflight/wire'), names.join(' '));
  for (const heavy of ['viem', 'koa', '@electric-sql/pglite', 'pino', '@modelcontextprotocol/sdk', 'hardhat', 'tsx'])
    t.false(names.includes(heavy), heavy);
  t.true(packages.length <= MAX_PACKAGES, `${packages.length} packages: ${names.join(' ')}`);
  const bytes = await bytesUnder(path.join(project, 'node_modules'));
  t.true(bytes <= MAX_BYTES, `${(bytes / 1024 / 1024).toFixed(1)} MB installed`);
  t.log(`${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB: ${names.join(' ')}`);
});

test.serial(
  'a TypeScript file of the project type-checks under strict tsc against the shipped declarations',
  async (t) => {
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
          skipLibCheck: false,
        },
        files: ['types.ts'],
      }),
    );
    const typed = await typecheck(project);
    t.is(typed.code, 0, typed.stdout);
    // The check can fail: a wrong use of the buyer's types is an error.
    await writeFile(
      path.join(project, 'types.ts'),
      `${CONSUMER_TS}\nexport const wrong: BuyResult = { status: 'bought' };\n`,
    );
    const wrong = await typecheck(project);
    t.not(wrong.code, 0);
    t.regex(wrong.stdout, /types\.ts/);
  },
);

test.serial(
  'a plain Node script of the project buys a report; the installed CLI verifies the saved report',
  async (t) => {
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
    const cli = path.join(project, 'node_modules/.bin/rights-preflight');
    const verify = await run(cli, ['verify', 'saved.json', '--key', service.evidenceKey.public_key], { cwd: project });
    t.regex(verify.stdout, /^OK purchase [0-9a-f]{64}/);
    const version = await run(cli, ['--version'], { cwd: project });
    const pkg = JSON.parse(await readFile(path.join(PACKAGE, 'package.json'), 'utf8')) as { version: string };
    t.is(version.stdout.trim(), pkg.version);
  },
);
