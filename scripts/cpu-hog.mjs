#!/usr/bin/env node
// A CPU hog for checking that tests mean the same on a busy machine (test/README.md, "A busy machine"):
// one spinning thread per core, at the ordinary priority, so everything else on the machine (the tests,
// the service they start, its workers) gets only a share of each core.
//
//   node scripts/cpu-hog.mjs start [--max-seconds N] [--threads N]   starts it in the background
//   node scripts/cpu-hog.mjs stop                                    stops the one started from here
//   node scripts/cpu-hog.mjs status
//   node scripts/cpu-hog.mjs run [--max-seconds N] [--threads N] -- <command> [args...]
//        runs the command while the hog holds the cores, stops the hog, prints the command's wall time
//        and exits with the command's code
//
// Bounded: the hog stops by itself after --max-seconds (default 1800, at most 7200) even if nobody stops
// it: its main thread holds a timer, and every spinning thread checks the same deadline on its own.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_MAX_SECONDS = 1800;
const CEILING_SECONDS = 7200;
/** One pid file per checkout, so two worktrees on one machine do not stop each other's hog. */
const PID_FILE = path.join(
  os.tmpdir(),
  `cpu-hog-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}-${process.getuid?.() ?? 'u'}.pid`,
);

function spin(deadline) {
  let x = 0;
  while (Date.now() < deadline) for (let i = 0; i < 1e6; i++) x = (x * 31 + i) | 0;
  return x;
}

function options(args) {
  let maxSeconds = DEFAULT_MAX_SECONDS;
  let threads = os.availableParallelism?.() ?? os.cpus().length;
  let i = 0;
  for (; i < args.length; i++) {
    if (args[i] === '--max-seconds') maxSeconds = Number(args[++i]);
    else if (args[i] === '--threads') threads = Number(args[++i]);
    else if (args[i] === '--') {
      i++;
      break;
    } else break;
  }
  if (!Number.isFinite(maxSeconds) || maxSeconds <= 0) throw new Error('--max-seconds takes a positive number');
  if (!Number.isInteger(threads) || threads <= 0) throw new Error('--threads takes a positive integer');
  return { maxSeconds: Math.min(maxSeconds, CEILING_SECONDS), threads, rest: args.slice(i) };
}

/** The hog itself: `threads` spinning workers until the deadline. */
function hog(maxSeconds, threads) {
  const deadline = Date.now() + maxSeconds * 1000;
  for (let t = 0; t < threads; t++) new Worker(fileURLToPath(import.meta.url), { workerData: { deadline } });
  const stop = () => process.exit(0);
  setTimeout(stop, maxSeconds * 1000);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function runningPid() {
  try {
    const pid = Number(readFileSync(PID_FILE, 'utf8').trim());
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function start(maxSeconds, threads, detached) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), 'hog', '--max-seconds', String(maxSeconds), '--threads', String(threads)],
    { detached, stdio: 'ignore' },
  );
  if (detached) {
    writeFileSync(PID_FILE, `${child.pid}\n`);
    child.unref();
  }
  return child;
}

function stop() {
  const pid = runningPid();
  rmSync(PID_FILE, { force: true });
  if (pid === null) return false;
  process.kill(pid, 'SIGTERM');
  return true;
}

if (!isMainThread) {
  spin(workerData.deadline);
} else {
  const [command, ...args] = process.argv.slice(2);
  const { maxSeconds, threads, rest } = options(args);
  if (command === 'hog') hog(maxSeconds, threads);
  else if (command === 'start') {
    if (runningPid() !== null) {
      console.error(`a hog is already running (pid ${runningPid()}); stop it first`);
      process.exit(1);
    }
    const child = start(maxSeconds, threads, true);
    console.log(`cpu hog started: pid ${child.pid}, ${threads} threads, stops by itself within ${maxSeconds} s`);
  } else if (command === 'stop') {
    console.log(stop() ? 'cpu hog stopped' : 'no cpu hog was running');
  } else if (command === 'status') {
    const pid = runningPid();
    console.log(pid === null ? 'no cpu hog is running' : `cpu hog running: pid ${pid}`);
  } else if (command === 'run' && rest.length > 0) {
    const hogProcess = start(maxSeconds, threads, false);
    let hogEnded = false;
    hogProcess.on('exit', () => {
      hogEnded = true;
    });
    const started = performance.now();
    const run = spawn(rest[0], rest.slice(1), { stdio: 'inherit' });
    const finish = (code) => {
      const held = hogEnded ? `stopped at its ${maxSeconds} s bound before the run ended` : 'held for the whole run';
      hogProcess.kill('SIGTERM');
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`command took ${seconds} s (exit ${code}); cpu hog of ${threads} threads ${held}`);
      process.exit(code);
    };
    run.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
    run.on('error', (err) => {
      console.error(err.message);
      finish(1);
    });
    for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => run.kill(sig));
  } else {
    console.error(
      'usage: node scripts/cpu-hog.mjs start|stop|status [--max-seconds N] [--threads N]\n' +
        '       node scripts/cpu-hog.mjs run [--max-seconds N] [--threads N] -- <command> [args...]',
    );
    process.exit(2);
  }
}
