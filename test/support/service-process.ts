import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedServiceEnv } from './embedded-template.js';

// Runs the real service entry point (src/service/main.ts) in its own process, so a test can SIGKILL it at a
// chosen point and start it again on the same store. Everything it writes is kept for the secret grep.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** resolves with the exit signal/code */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

export interface StartOptions {
  /** Run the service as `npm start` does: compiled into build/ first, then plain node (benchmarks). */
  compiled?: boolean;
  /** Extra node options (e.g. --cpu-prof to profile a benchmark's service). */
  nodeArgs?: string[];
  /** Keep only the output up to the "listening" line (benchmarks: a service under load logs a line per
   *  request, and holding it all would cost this process, which shares the machine, CPU and memory). */
  dropOutputAfterStart?: boolean;
}

export async function startServiceProcess(
  env: Record<string, string>,
  sink?: (chunk: string) => void,
  opts: StartOptions = {},
): Promise<ServiceProcess> {
  // The default embedded stores of a new DATA_DIR start as copies of the run's template (no initdb).
  await seedServiceEnv(env);
  if (opts.compiled) execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  const argv = [
    ...(opts.nodeArgs ?? []),
    ...(opts.compiled
      ? [path.join(ROOT, 'build/src/service/main.js')]
      : ['--import', 'tsx', path.join(ROOT, 'src/service/main.ts')]),
  ];
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', METRICS_LISTEN: '127.0.0.1:0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let keep = true;
  const onData = (chunk: Buffer) => {
    if (!keep) return;
    const s = chunk.toString('utf8');
    out += s;
    sink?.(s);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    // Only a cap on waiting for the readiness line: on a machine busy past its cores a start under tsx can
    // take a minute. Just under ava's 120 s, so the failure names the start rather than a timeout.
    // A process that did not start in time is stopped, and the start fails once it is gone: it holds no
    // store lock for the next test.
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      child.kill('SIGKILL');
    }, 110_000);
    // Each chunk is scanned from where the previous scan stopped, and the scan ends with the start.
    let scanned = 0;
    const check = () => {
      const end = out.lastIndexOf('\n') + 1;
      const lines = out.slice(scanned, end).split('\n');
      scanned = end;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          const rec = JSON.parse(line) as { msg?: string; url?: string };
          if (rec.msg === 'rights preflight service listening' && rec.url) {
            clearTimeout(timer);
            child.stdout!.off('data', check);
            if (opts.dropOutputAfterStart) keep = false;
            resolve(rec.url);
            return;
          }
        } catch {
          /* not a log record */
        }
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(
          late ? `service did not start:\n${out}` : `service exited (${code ?? signal}) before listening:\n${out}`,
        ),
      );
    });
  });
  return {
    url,
    child,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
