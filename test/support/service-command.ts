import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedServiceEnv } from './embedded-template.js';

// Starts the service the way an operator does — `node … src/service/main.ts [args]` or `npm start` — in its
// own process group (so a test may signal the group without signalling itself), and waits for the
// "listening" log line, which names the URL and node's own pid.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StartedCommand {
  child: ChildProcess;
  url: string;
  nodePid: number;
  output: () => string;
  exited: Promise<number | null>;
  kill(): void;
}

export async function startServiceCommand(
  how: 'node' | 'npm',
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  opts: { firstStart?: boolean } = {},
): Promise<StartedCommand> {
  // The store starts as a copy of the run's template unless the test is about a first start (initdb included).
  if (!opts.firstStart) await seedServiceEnv(env);
  const [cmd, argv] =
    how === 'node'
      ? [process.execPath, ['--import', 'tsx', 'src/service/main.ts', ...args]]
      : ['npm', ['start', '--silent', ...(args.length ? ['--', ...args] : [])]];
  const child = spawn(cmd, argv, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  for (let i = 0; i < 600; i++) {
    const line = out.split('\n').find((l) => l.includes('"rights preflight service listening"'));
    if (line) {
      const rec = JSON.parse(line) as { url: string; pid: number };
      return { child, url: rec.url, nodePid: rec.pid, output: () => out, exited, kill };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  kill();
  throw new Error(`service did not start:\n${out}`);
}
