#!/usr/bin/env node
// Runs ava in TAP mode and closes with the plain `N passed, N failed` line CI reads
// (ava's own summary is not recognised there). Skips and todos are reported, never counted as passes.
import { spawn } from 'node:child_process';

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
child.on('close', (code) => {
  const failed = fail + (code !== 0 && fail === 0 ? 1 : 0);
  if (skip || todo) console.log(`(${skip} skipped, ${todo} todo: not counted as passed)`);
  // ava's TAP `# pass` already excludes skipped and todo tests, so it is the honest pass count.
  console.log(`${pass} passed, ${failed} failed`);
  process.exit(code ?? 1);
});
