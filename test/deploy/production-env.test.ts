import test from 'ava';
import { startWorld, type World } from '../support/world.js';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServiceCommand } from '../support/service-command.js';

// An operator's first production start: `npm run ops -- keys generate` makes the secrets, they go
// into an env file shaped like .env.example, and `npm start -- --env-file FILE` with
// NODE_ENV=production starts on them (production never generates a key) and publishes the evidence
// public key that `keys generate` announced.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

// The test world with no service: its chain, publishers and data dir under a production environment.
let world: World;
test.before(async () => {
  world = await startWorld({ service: false, tmpPrefix: 'rights-prod-env-' });
});
test.after.always(async () => {
  await world?.close();
});

test('keys generate prints three fresh 32-byte secrets and the evidence public key; two runs differ', async (t) => {
  const once = await run('npm', ['run', '--silent', 'ops', '--', 'keys', 'generate'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const twice = await run('npm', ['run', '--silent', 'ops', '--', 'keys', 'generate', '--json'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const lines = once.stdout.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
  t.deepEqual(
    lines.map((l) => l.split('=')[0]),
    ['EVIDENCE_KEY', 'CHECKPOINT_KEY', 'CLAIM_SECRET'],
  );
  for (const l of lines) t.regex(l.split('=')[1]!, /^[0-9a-f]{64}$/);
  const json = JSON.parse(twice.stdout) as Record<string, string>;
  t.regex(json.evidence_public_key!, /^[0-9a-f]{64}$/);
  t.not(json.EVIDENCE_KEY, lines[0]!.split('=')[1]);
  t.is(new Set([json.EVIDENCE_KEY, json.CHECKPOINT_KEY, json.CLAIM_SECRET]).size, 3);
});

test(
  'npm start -- --env-file FILE starts in production on the generated keys; ' + 'the environment wins over the file',
  async (t) => {
    const generated = JSON.parse(
      (
        await run('npm', ['run', '--silent', 'ops', '--', 'keys', 'generate', '--json'], {
          cwd: ROOT,
          env: { PATH: process.env.PATH, HOME: process.env.HOME },
        })
      ).stdout,
    ) as Record<string, string>;
    // The example file, filled in: every key of it is a known setting.
    const example = await readFile(path.join(ROOT, '.env.example'), 'utf8');
    const values: Record<string, string> = {
      EVIDENCE_KEY: generated.EVIDENCE_KEY!,
      CHECKPOINT_KEY: generated.CHECKPOINT_KEY!,
      CLAIM_SECRET: generated.CLAIM_SECRET!,
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_BASE_URL: 'https://preflight.test',
      EVENT_STORE_URL: `file:${path.join(world.dataDir, 'events')}`,
      PAY_TO: world.devnet.payTo,
      RPC_URL: world.devnet.rpcUrl,
      RELAYER_PRIVATE_KEY: world.devnet.relayer.privateKey,
      COVERED_ORIGINS: world.origins.env.COVERED_ORIGINS!,
      METRICS_LISTEN: 'off',
      LOG_LEVEL: 'info',
    };
    const filled = example
      .split('\n')
      .map((line) => {
        const m = /^([A-Z_]+)=/.exec(line);
        return m && values[m[1]!] !== undefined ? `${m[1]}=${values[m[1]!]}` : line;
      })
      .join('\n');
    const file = path.join(world.dataDir, 'production.env');
    await writeFile(file, filled, { mode: 0o600 });

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: world.dataDir,
      ...world.origins.env,
      LOG_LEVEL: 'info',
    };
    delete env.COVERED_ORIGINS;
    const s = await startServiceCommand('npm', env, ['--env-file', file]);
    t.teardown(s.kill);
    const caps = (await (await fetch(`${s.url}/v1/capabilities`)).json()) as {
      evidence: { keys: { public_key: string; key_id: string }[] };
    };
    t.is(caps.evidence.keys[0]!.public_key, generated.evidence_public_key!);
    t.is(caps.evidence.keys[0]!.key_id, generated.evidence_key_id!);
    t.false(
      s.output().includes(generated.EVIDENCE_KEY!) || s.output().includes(generated.CLAIM_SECRET!),
      'no secret in the log',
    );
    process.kill(s.nodePid, 'SIGTERM');
    t.is(await s.exited, 0);

    // A variable set in the environment wins over the file: a wrong one stops the start, naming it.
    const overridden = await run(process.execPath, ['--import', 'tsx', 'src/service/main.ts', '--env-file', file], {
      cwd: ROOT,
      env: { ...env, PORT: 'eighty' },
    }).catch((e: { code: number; stderr: string }) => e);
    t.is((overridden as { code: number }).code, 2);
    t.regex((overridden as { stderr: string }).stderr, /PORT/);
  },
);
