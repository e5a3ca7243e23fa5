#!/usr/bin/env node
// Runs ava in TAP mode and, beside it, the Python buyer's pytest suite (packages/python; its virtual environment is
// created and the package installed with its test and integration extras when absent or when its
// pyproject.toml changed), and closes with the ONE plain `N passed, N failed` line CI reads, summing both
// languages. Skips and todos are reported, never counted as passes. Given ava arguments (a subset of files),
// the Python suite runs only with RIGHTS_TEST_PYTHON=1.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const args = ['ava', '--tap', ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
let pass = 0,
  fail = 0,
  skip = 0,
  todo = 0,
  buffer = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffer += chunk.toString('utf8');
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const m = /^# (pass|fail|skip|todo) (\d+)/.exec(line);
    if (m) {
      const n = Number(m[2]);
      if (m[1] === 'pass') pass = n;
      else if (m[1] === 'fail') fail = n;
      else if (m[1] === 'skip') skip = n;
      else todo = n;
    }
  }
});

const PY = 'packages/python';
const VENV = path.join(PY, '.venv');
const venvPython = path.join(VENV, 'bin', 'python');

/** A child process's exit status, awaited. */
function run(command, argv) {
  return new Promise((resolve) => {
    const child = spawn(command, argv, { stdio: ['ignore', 2, 'inherit'] });
    child.on('error', () => resolve(1));
    child.on('close', (status) => resolve(status ?? 1));
  });
}

/** The venv with the package installed (editable, test and integration extras); false when it cannot be made. */
async function pythonReady() {
  if (!existsSync(venvPython)) {
    console.error(`creating ${VENV} (python3 -m venv)`);
    if ((await run('python3', ['-m', 'venv', VENV])) !== 0) return false;
  }
  const stamp = path.join(VENV, '.rights-preflight-installed');
  const want = createHash('sha256')
    .update(readFileSync(path.join(PY, 'pyproject.toml')))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return true;
  console.error(`installing ${PY}[test,langchain,llamaindex,scrapy] into ${VENV}`);
  // --no-compile: Python compiles what the tests import when they import it, not all of every dependency here.
  const pip = ['-m', 'pip', 'install', '-q', '--no-compile', '-e', `${PY}[test,langchain,llamaindex,scrapy]`];
  if ((await run(venvPython, pip)) !== 0) return false;
  writeFileSync(stamp, want);
  return true;
}

const pythonWanted = process.argv.length <= 2 || process.env.RIGHTS_TEST_PYTHON === '1';

/** pytest's counts from its summary line ("3 passed, 1 failed, 2 skipped, 1 error in 9.1s"). */
async function runPytest() {
  if (!pythonWanted) return { passed: 0, failed: 0, skipped: 0, output: '' };
  if (!(await pythonReady())) {
    console.error('the Python suite could not be set up: counted as one failure');
    return { passed: 0, failed: 1, skipped: 0, output: '' };
  }
  return new Promise((resolve) => {
    const py = spawn(venvPython, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', PY], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    });
    let out = '';
    py.stdout.on('data', (chunk) => {
      out += chunk.toString('utf8');
    });
    py.on('close', (code) => {
      const summary =
        out
          .trim()
          .split('\n')
          .reverse()
          .find((l) => / in [0-9.]+s/.test(l)) ?? '';
      const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
      const passed = count('passed');
      let failed = count('failed') + count('errors?');
      if (code !== 0 && failed === 0) failed = 1;
      resolve({ passed, failed, skipped: count('skipped'), output: out });
    });
  });
}

// The Python suite (its environment made first) runs beside ava: pip's downloads and much of pytest wait on
// the network, the disk and the services they start more than on the CPU, so on CI they cost little wall time
// beside the TypeScript suite. Its report is printed after ava's, whole, so the two never interleave.
const pytest = runPytest();

child.on('close', async (code) => {
  const failed = fail + (code !== 0 && fail === 0 ? 1 : 0);
  const py = await pytest;
  process.stdout.write(py.output);
  if (skip || todo) console.log(`(${skip} skipped, ${todo} todo: not counted as passed)`);
  if (py.skipped) console.log(`(${py.skipped} pytest skipped: not counted as passed)`);
  // ava's TAP `# pass` already excludes skipped and todo tests, so it is the honest pass count.
  console.log(`${pass + py.passed} passed, ${failed + py.failed} failed`);
  process.exit(code === 0 && py.failed === 0 ? 0 : code || 1);
});
