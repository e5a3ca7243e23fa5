import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

// `npm run ops` runs the CLI compiled into build/ (scripts/ops.mjs) and imports a command's code only when
// that command runs (docs/decisions.md, "A tree that explains itself, the layers on the import graph,
// operator commands from built code"). Counted, not timed: the modules of ours `--help` loads.

const run = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RECORD = pathToFileURL(path.join(ROOT, 'test/ops/support/record-modules.mjs')).href;

async function loaded(args: string[]): Promise<{ stdout: string; modules: string[] }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rights-ops-modules-'));
  const file = path.join(dir, 'loaded.txt');
  try {
    const { stdout } = await run(process.execPath, ['--import', RECORD, 'scripts/ops.mjs', ...args], {
      cwd: ROOT,
      env: { ...process.env, RECORD_MODULES_FILE: file },
    });
    const modules = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l.startsWith('loaded '))
      .map((l) => path.relative(ROOT, fileURLToPath(l.slice('loaded '.length))));
    return { stdout, modules };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('ops --help runs the built CLI and loads no command, no configuration and no store', async (t) => {
  const { stdout, modules } = await loaded(['--help']);
  t.regex(stdout, /^usage: npm run ops -- <command>/);
  t.true(modules.includes('build/ops/cli.js'), modules.join('\n'));
  t.false(
    modules.some((m) => m.endsWith('.ts')),
    'no TypeScript is loaded',
  );
  const ours = modules.filter((m) => m.startsWith('build/'));
  t.deepEqual(ours.sort(), [
    'build/ops/cli.js',
    'build/ops/operator/args.js',
    'build/ops/operator/context.js',
    'build/src/config/config-error.js',
    'build/src/operator/calendar-day.js',
    'build/src/operator/usage-error.js',
  ]);
});

test('ops queue --help loads the same: a command is imported when it runs', async (t) => {
  const { stdout, modules } = await loaded(['queue', '--help']);
  t.regex(stdout, /queue \[--json\]/);
  t.false(
    modules.some((m) => m.includes('/operator/queue.js') || m.includes('/store/')),
    modules.join('\n'),
  );
});
