import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Devnet } from '../../src/devnet/devnet.js';
import { openStore } from '../../src/store/open/open.js';
import type { EventStore } from '../../src/store/port.js';
import type { ServiceProcess } from '../support/service-process.js';
import { startWorld } from '../support/world.js';
import { EVIDENCE_SEED_HEX } from '../ops/seed.js';

// `npm start` on the embedded store with purchases already in it, for tests of the tools operators
// run beside it: the store is seeded (by the same decide path as the service) before the service
// process starts and takes the store's lock; then the CLI and the console reach it through its
// operator listener.

export interface ServiceBeside {
  service: ServiceProcess;
  /** The chain the service settles on (its funded buyers pay in tests that make a real purchase). */
  devnet: Devnet;
  dataDir: string;
  /** The environment an operator's shell has: the service's DATA_DIR and evidence key. */
  opsEnv: Record<string, string>;
  /** Stops the service, then reads the stream from the store it released. */
  stopAndRead(stream: string): Promise<{ type: string; data: unknown }[]>;
  close(): Promise<void>;
}

export async function serviceBeside<T>(
  seed: (store: EventStore) => Promise<T>,
): Promise<ServiceBeside & { seeded: T }> {
  const w = await startWorld({
    service: false,
    logLevel: 'info',
    tmpPrefix: 'rights-operator-',
    env: { EVIDENCE_KEY: EVIDENCE_SEED_HEX },
  });
  try {
    const store = await openStore(w.env.EVENT_STORE_URL!);
    const seeded = await seed(store).finally(() => store.close());
    const service = await w.startProcess();
    const opsEnv = { DATA_DIR: w.dataDir, EVIDENCE_KEY: EVIDENCE_SEED_HEX, LOG_LEVEL: 'silent' };
    return {
      service,
      devnet: w.devnet,
      dataDir: w.dataDir,
      opsEnv,
      seeded,
      async stopAndRead(stream) {
        await service.stop();
        const s = await openStore(w.env.EVENT_STORE_URL!);
        try {
          return (await s.readStream(stream)).map((e) => ({ type: e.type, data: e.data }));
        } finally {
          await s.close();
        }
      },
      close: () => w.close(),
    };
  } catch (err) {
    await w.close();
    throw err;
  }
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `npm run ops -- console --json` as a child process: resolves with its URL and a way to stop it. */
export async function opsConsole(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'ops/cli.ts', 'console', '--json'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => {
    err += s;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ops console printed no URL:\n${out}\n${err}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`ops console exited:\n${out}\n${err}`));
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
