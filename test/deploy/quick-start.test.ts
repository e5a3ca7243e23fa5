import test from 'ava';
import { exec } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServiceCommand } from '../support/service-command.js';

// The README's quick start, exactly: `npm start` with nothing set but a temp DATA_DIR (and PORT=0: the
// test machine is shared, and 8402 may be another test's), then the three buyer commands the README
// shows, taken from it, run in a shell from the repository (their `data/` is that DATA_DIR). They buy
// a report from an example publisher the development start serves, and verify it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sh = promisify(exec);

function quickStartCommands(readme: string): string[] {
  const after = readme.slice(readme.indexOf('<!-- quick-start:'));
  const block = /```sh\n([\s\S]*?)```/.exec(after)?.[1] ?? '';
  return block.split('\n').filter((l) => l.startsWith('npx rights-preflight '));
}

test('npm start in development, then the README quick start: quote, buy and verify a report', async (t) => {
  const commands = quickStartCommands(await readFile(path.join(ROOT, 'README.md'), 'utf8'));
  t.deepEqual(
    commands.map((c) => c.split(' ')[2]),
    ['quote', 'buy', 'verify'],
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-quick-start-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0' };
  const s = await startServiceCommand('npm', env, [], { firstStart: true });
  t.teardown(s.kill);
  // The start printed the example publishers beside the chain's keys, and covers them.
  t.regex(s.output(), /EXAMPLES +publishers served on loopback/);
  t.regex(s.output(), /permitted +https:\/\/open\.demo\.example\/articles\/climate/);
  t.regex(s.output(), /coverage 4 origins/);
  const caps = (await (await fetch(`${s.url}/v1/capabilities`)).json()) as { coverage: { origins: string[] } };
  t.true(caps.coverage.origins.includes('https://open.demo.example'));
  t.is((await stat(path.join(dataDir, 'buyer.env'))).mode & 0o777, 0o600);

  const results: string[] = [];
  for (const command of commands) {
    const run = command.replaceAll(' data/', ` ${dataDir}/`);
    const r = await sh(run, { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME }, timeout: 120_000 });
    results.push(r.stdout);
  }
  t.is(JSON.parse(results[0]!).available, true);
  const bought = JSON.parse(results[1]!) as { status: string; saved: string; amount_micro: string };
  t.is(bought.status, 'delivered');
  t.is(bought.amount_micro, '20000');
  t.is(bought.saved, path.join(dataDir, 'climate.json'));
  t.regex(results[2]!, /^OK purchase [0-9a-f]{64}: https:\/\/open\.demo\.example\/articles\/climate PERMITTED/);
  process.kill(s.nodePid, 'SIGTERM');
  t.is(await s.exited, 0);
});
