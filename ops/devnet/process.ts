import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { devnetOperations, type Devnet, type DevnetInfo } from './devnet.js';
import { siblingModule } from '../../src/sibling-module.js';

// The devnet in its own process (ops/devnet/main.ts --json): the development chain `npm start` runs
// beside the service (src/devnet-child.ts), and tests whose chain must outlive the service process
// they kill and restart. The parent reads the one JSON "ready" line and then talks
// to the chain over HTTP like any other client.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = siblingModule(import.meta.url, './main');

export interface DevnetProcess extends Devnet {
  child: ChildProcess;
  /** Set when started with { facilitator: true }: a local x402 facilitator server on the same chain. */
  facilitatorUrl?: string;
}

export async function startDevnetProcess(
  opts: { port?: number; timeoutMs?: number; facilitator?: boolean; blockMs?: number } = {},
): Promise<DevnetProcess> {
  const args = [
    ...(MAIN.typescript ? ['--import', 'tsx'] : []),
    fileURLToPath(MAIN.url),
    '--json',
    '--exit-with-parent',
    '--port',
    String(opts.port ?? 0),
    ...(opts.facilitator ? ['--facilitator'] : []),
    ...(opts.blockMs !== undefined ? ['--block-ms', String(opts.blockMs)] : []),
  ];
  // Its own process group, so a Ctrl-C meant for the parent does not stop the chain under the parent's
  // drain (the parent stops it last); stdin is its lifeline: when the parent dies, it exits too.
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info = await new Promise<DevnetInfo & { facilitatorUrl?: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`devnet process did not start in time:\n${err}`));
    }, opts.timeoutMs ?? 60_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"devnet":"ready"'));
      if (!line) return;
      clearTimeout(timer);
      const { devnet: _ready, ...rest } = JSON.parse(line) as DevnetInfo & { devnet: string; facilitatorUrl?: string };
      resolve(rest);
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`devnet process exited before it was ready:\n${err}`));
    });
  });
  return {
    ...info,
    ...devnetOperations(info),
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
