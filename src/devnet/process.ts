import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DevChainInfo } from './dev-chain-block.js';
import { siblingModule } from '../runtime/sibling-module.js';

// The devnet in its own process (src/devnet/main.ts --json): the development chain `npm start` runs
// beside the service (src/devnet/devnet-child.ts), and tests whose chain must outlive the service process
// they kill and restart. The parent reads the one JSON "ready" line and then talks
// to the chain over HTTP like any other client. The devnet is started by its path, never imported:
// the service does not import ops/ (docs/decisions.md, "Every layer points down");
// src/devnet/chain-process.ts adds the chain's test operations (mint, balances) for tests.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = siblingModule(import.meta.url, './main');

/** The ready line's facts (`Info`: what the caller reads of them), the child, and how to stop it. */
export type DevnetProcess<Info extends DevChainInfo = DevChainInfo> = Info & DevnetChildProcess;
export interface DevnetChildProcess {
  child: ChildProcess;
  /** Set when started with { facilitator: true }: a local x402 facilitator server on the same chain. */
  facilitatorUrl?: string;
  stop(): Promise<void>;
}

export async function startDevnetProcess<Info extends DevChainInfo = DevChainInfo>(
  opts: { port?: number; timeoutMs?: number; facilitator?: boolean; blockMs?: number; publishersDir?: string } = {},
): Promise<DevnetProcess<Info>> {
  const args = [
    ...(MAIN.typescript ? ['--import', 'tsx'] : []),
    fileURLToPath(MAIN.url),
    '--json',
    '--exit-with-parent',
    '--port',
    String(opts.port ?? 0),
    ...(opts.facilitator ? ['--facilitator'] : []),
    ...(opts.blockMs !== undefined ? ['--block-ms', String(opts.blockMs)] : []),
    ...(opts.publishersDir !== undefined ? ['--publishers', opts.publishersDir] : []),
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
  const info = await new Promise<Info & { facilitatorUrl?: string }>((resolve, reject) => {
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
      const { devnet: _ready, ...rest } = JSON.parse(line) as { devnet: string };
      resolve(rest as Info & { facilitatorUrl?: string });
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`devnet process exited before it was ready:\n${err}`));
    });
  });
  return {
    ...info,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
