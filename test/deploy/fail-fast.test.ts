import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { lockDirectory } from '../../src/store/embedded/lockfile.js';
import { storeUrlProblems } from '../../src/config/store-host.js';

// A start that cannot succeed says so before it starts anything (docs/decisions.md, "Start-up checks
// before anything starts"): a data directory another service holds and a held port are refused before
// the devnet, the keys and the store, so nothing is created and no devnet banner is printed; the last
// line names the setting the operator set. And .env.example as shipped is one report of everything
// wrong with it. The real entry point in its own process, as `npm start` runs it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);
const DEVNET_BANNER = /DEVELOPMENT CHAIN/;

async function start(env: Record<string, string>, args: string[] = []) {
  return run(process.execPath, ['--import', 'tsx', 'src/service/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeout: 120_000,
  }).then(
    (r) => ({ code: 0, stderr: r.stderr, stdout: r.stdout }),
    (e: { code: number; stderr: string; stdout: string }) => ({ code: e.code, stderr: e.stderr, stdout: e.stdout }),
  );
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';

/** Every file and folder under `dir`, relative to it. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => undefined);
  return entries ? entries.map(String).sort() : ['(missing)'];
}

async function tempDir(t: import('ava').ExecutionContext): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-fail-fast-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('a second start on a data directory in use: refused naming DATA_DIR, before the devnet', async (t) => {
  const dataDir = await tempDir(t);
  // What a running service holds: the embedded store's lock on DATA_DIR/events, taken by this process.
  await mkdir(path.join(dataDir, 'events'));
  const lock = await lockDirectory(path.join(dataDir, 'events'));
  t.teardown(() => lock.release());
  const before = await tree(dataDir);

  // Development (the devnet would start first) with nothing but DATA_DIR set: a second `npm start`.
  const r = await start({ DATA_DIR: dataDir, PORT: '0' });
  t.is(r.code, 2, r.stderr);
  t.regex(lastLine(r.stderr), /\(DATA_DIR\); nothing was started$/, r.stderr);
  t.regex(r.stderr, new RegExp(`^configuration: DATA_DIR .* is in use by process ${process.pid} `, 'm'));
  t.notRegex(r.stderr, /EVENT_STORE_URL/, 'the user set DATA_DIR, not EVENT_STORE_URL');
  t.notRegex(r.stderr + r.stdout, DEVNET_BANNER, 'refused before the devnet started');
  t.is(r.stdout, '', 'nothing was logged: the logger is made after the checks');
  t.deepEqual(await tree(dataDir), before, 'no keys, no devnet publishers, no store');
});

test('a held port is refused naming PORT, before the devnet, creating nothing', async (t) => {
  const held = net.createServer();
  await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => held.close(() => resolve())));
  const port = (held.address() as net.AddressInfo).port;
  const dataDir = path.join(await tempDir(t), 'data');

  const r = await start({ DATA_DIR: dataDir, PORT: String(port) });
  t.is(r.code, 2, r.stderr);
  t.regex(lastLine(r.stderr), /\(PORT\); nothing was started$/, r.stderr);
  t.regex(r.stderr, new RegExp(`^configuration: PORT 127\\.0\\.0\\.1:${port} is in use`, 'm'));
  t.notRegex(r.stderr + r.stdout, DEVNET_BANNER);
  t.deepEqual(await tree(dataDir), ['(missing)'], 'DATA_DIR was not even created');
});

test('a damaged secret file in DATA_DIR: refused naming its variable, before the devnet', async (t) => {
  const dataDir = await tempDir(t);
  await writeFile(path.join(dataDir, 'checkpoint-key.hex'), 'not a key\n');
  const before = await tree(dataDir);
  const r = await start({ DATA_DIR: dataDir, PORT: '0' });
  t.is(r.code, 2, r.stderr);
  t.regex(lastLine(r.stderr), /\(CHECKPOINT_KEY\); nothing was started$/, r.stderr);
  t.regex(
    r.stderr,
    new RegExp(
      '^configuration: CHECKPOINT_KEY is not set, and its file in DATA_DIR cannot be used: ' +
        '.*checkpoint-key\\.hex does not hold 64 hex characters',
      'm',
    ),
  );
  t.notRegex(r.stderr + r.stdout, DEVNET_BANNER);
  t.deepEqual(await tree(dataDir), before, 'no other key generated');
});

test('.env.example as shipped, in production: one report naming every missing or wrong setting', async (t) => {
  const dataDir = path.join(await tempDir(t), 'data');
  const r = await start({ DATA_DIR: dataDir }, ['--env-file', '.env.example']);
  t.is(r.code, 2, r.stderr);
  const named = new Set(
    r.stderr
      .split('\n')
      .map((l) => /^configuration: (\S+) /.exec(l)?.[1])
      .filter((v): v is string => v !== undefined),
  );
  for (const expected of [
    'PAY_TO',
    'RELAYER_PRIVATE_KEY',
    'EVIDENCE_KEY',
    'CHECKPOINT_KEY',
    'CLAIM_SECRET',
    'PUBLIC_BASE_URL',
    'EVENT_STORE_URL',
  ])
    t.true(named.has(expected), `${expected} is reported:\n${r.stderr}`);
  // Another program on this machine may hold the example's ports; that is reported too, and nothing else.
  for (const other of named)
    if (['PORT', 'METRICS_LISTEN'].includes(other))
      t.regex(r.stderr, new RegExp(`^configuration: ${other} .* in use`, 'm'));
  t.is(named.size, (named.has('PORT') ? 1 : 0) + (named.has('METRICS_LISTEN') ? 1 : 0) + 7, r.stderr);
  t.regex(r.stderr, /EVENT_STORE_URL still holds the example's password CHANGE_ME/);
  // The host line needs a resolver that answers (ENOTFOUND); offline, only the password names EVENT_STORE_URL.
  if (!/EVENT_STORE_URL names host db\.internal, which the resolver does not know/.test(r.stderr))
    t.log('the resolver did not answer for db.internal: its line is left out, as designed');
  t.regex(lastLine(r.stderr), /^\d+ configuration problem\(s\) \(PAY_TO, .*EVENT_STORE_URL.*\); nothing was started$/);
  t.deepEqual(await tree(dataDir), ['(missing)']);
});

test('a PostgreSQL store URL: the placeholder password and an unknown host are problems, a good one not', async (t) => {
  const denied = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  const notFound = async () => Promise.reject(denied);
  const wrong = await storeUrlProblems(
    'EVENT_STORE_URL',
    'postgres://rights:CHANGE_ME@db.internal:5432/rights',
    notFound,
  );
  t.deepEqual(
    wrong.map((p) => p.problem),
    [
      "still holds the example's password CHANGE_ME",
      'names host db.internal, which the resolver does not know (ENOTFOUND)',
    ],
  );
  // A resolver that cannot answer now (no network) is no setting's fault: nothing is reported.
  const unavailable = async () => Promise.reject(Object.assign(new Error('EAI_AGAIN'), { code: 'EAI_AGAIN' }));
  t.deepEqual(await storeUrlProblems('EVENT_STORE_URL', 'postgres://u:p@db.internal/x', unavailable), []);
  t.deepEqual(await storeUrlProblems('EVENT_STORE_URL', 'postgres://u:p@127.0.0.1:5432/x'), []);
  t.deepEqual(await storeUrlProblems('EVENT_STORE_URL', 'file:/tmp/x', notFound), []);
});
