import type { OriginSite } from '../../src/devnet/https-origin.js';
import { startLocalWorld, type LocalWorld, type LocalWorldOptions } from '../../ops/world/local-world.js';
import { demoSite } from '../../src/devnet/demo-site.js';
import { seedEmbeddedDataDir } from './embedded-template.js';
import { publisherSite } from './publishers.js';
import { startedInHook } from './started-in-hook.js';
import { startServiceProcess, type ServiceProcess, type StartOptions } from './service-process.js';

// The one builder of test worlds (test/README.md): ops/world's local world — a real devnet, the test
// publishers (./publishers.ts) over HTTPS on loopback, a store (embedded in a temp dir, or
// `eventStoreUrl`) — with the service in this process (`start()`, the default) or in processes of its
// own (`startProcess()`, for SIGKILL and several-instance tests), every line any of them logs kept for
// the secret grep. `useWorld` is the one before/after pair a test file needs for it.

export interface World extends LocalWorld {
  /** The service's entry point (src/service/main.ts) in a process of its own on this world's store, `env` added. */
  startProcess(env?: Record<string, string>, opts?: StartOptions): Promise<ServiceProcess>;
  /** What the in-process services and every service process logged. */
  allLogs(): string;
}

export interface WorldOptions extends LocalWorldOptions {
  /** The publishers (default: ./publishers.ts). */
  site?: OriginSite;
}

export async function startWorld(o: WorldOptions = {}): Promise<World> {
  const { site, ...rest } = o;
  const local = await startLocalWorld(site ?? publisherSite(), {
    logLevel: 'debug',
    tmpPrefix: 'rights-test-',
    prepareDataDir: seedEmbeddedDataDir,
    ...rest,
  });
  let processLogs = '';
  const world: World = Object.assign(local, {
    async startProcess(env: Record<string, string> = {}, opts: StartOptions = {}) {
      const p = await startServiceProcess(
        { ...local.env, ...env },
        (s) => {
          processLogs += s;
        },
        opts,
      );
      local.onClose(() => p.stop());
      return p;
    },
    allLogs: () => processLogs + local.logs(),
  });
  return world;
}

/** One world for the calling test file, started before its tests and closed after them (`w.url` …). */
export const useWorld = (o: WorldOptions = {}): World =>
  startedInHook(
    () => startWorld(o),
    (w) => w.close(),
  );

/** The options of the demo's world (`npm run demo`): its four publishers (src/devnet/demo-site.ts). */
export const demoWorld = (o: WorldOptions = {}): WorldOptions => ({
  site: demoSite(),
  logLevel: 'warn',
  tmpPrefix: 'rights-demo-',
  ...o,
});
