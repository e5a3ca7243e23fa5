import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The README's first command, as a newcomer runs it on a fresh machine: `npm start` with nothing
// configured but a fresh DATA_DIR starts the service on the embedded store, with the development
// devnet in a child process of its own (the service process never contains the chain). When the
// service stops (SIGTERM) or dies (SIGKILL), the devnet goes with it.

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Started {
  npm: ReturnType<typeof spawn>;
  url: string;
  devnetPid: number;
  servicePid: number;
  output: () => string;
  exited: Promise<void>;
  cleanup(): Promise<void>;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

const parentOf = async (pid: number): Promise<number> =>
  Number(/^PPid:\s+(\d+)$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))![1]);

async function npmStart(): Promise<Started> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-npm-start-'));
  // Only what a shell would have: no RPC_URL, no keys, no NODE_ENV.
  const npm = spawn('npm', ['start'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  npm.stderr!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  const cleanup = async () => {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const { url, devnetPid } = await new Promise<{ url: string; devnetPid: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not listen in time:\n${out}`)), 100_000);
      const check = () => {
        const listening = lines().find((l) => l.msg === 'rights preflight service listening');
        const devnet = lines().find((l) => l.msg === 'development devnet started (test keys, no real funds)');
        if (listening && devnet) {
          clearTimeout(timer);
          resolve({ url: String(listening.url), devnetPid: Number(devnet.devnet_pid) });
        }
      };
      npm.stdout!.on('data', check);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`npm start exited before listening:\n${out}`));
      });
    });
    return { npm, url, devnetPid, servicePid: await parentOf(devnetPid), output: () => out, exited, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

test.serial(
  'npm start on a fresh machine: the service answers on the embedded store, ' +
    'the devnet runs in its own process, SIGTERM stops both',
  async (t) => {
    const s = await npmStart();
    try {
      t.not(s.devnetPid, s.servicePid, 'the devnet is a child process, not the service');
      t.true(alive(s.devnetPid));
      const res = await fetch(`${s.url}/v1/capabilities`);
      t.is(res.status, 200);
      const caps = (await res.json()) as { payment?: { network?: string } };
      t.is(
        JSON.stringify(caps).includes('eip155:8453'),
        true,
        'the devnet chain (Base chain id) is the payment network',
      );
      process.kill(s.servicePid, 'SIGTERM');
      t.true(await gone(s.servicePid, 30_000), `the service stopped:\n${s.output().slice(-2000)}`);
      t.true(await gone(s.devnetPid, 10_000), 'the devnet child stopped with the service');
    } finally {
      await s.cleanup();
    }
  },
);

test.serial('a service killed with SIGKILL leaves no devnet behind', async (t) => {
  const s = await npmStart();
  try {
    process.kill(s.servicePid, 'SIGKILL');
    t.true(await gone(s.devnetPid, 15_000), 'the devnet exits when its parent dies (its stdin closes)');
  } finally {
    await s.cleanup();
  }
});
