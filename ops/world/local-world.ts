import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { loadConfig, serviceConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/runtime/log.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/service/service.js';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/devnet.js';
import { startTestOrigins, type OriginSite, type TestOrigins } from '../../src/devnet/https-origin.js';
import { LOCAL_RATE_LIMITS } from './local-rate-limits.js';

// A whole local world on one machine, for `npm run demo` and every test that drives the real service:
// a fresh in-process devnet (Base USDC at its real address, funded buyers), real HTTPS RSL publishers on
// loopback (self-signed certificate made at run time, reached through FETCH_CONNECT_TO, trusted through
// FETCH_EXTRA_CA_FILE) and the real service on the embedded store in a temp data dir, its log captured
// so tests can grep it for secrets. The publishers (./https-origin.ts) are plain Node (no ava): the tests
// import them from here.

/** The service environment of a local world: everything but what a test overrides. */
export function localServiceEnv(o: {
  devnet: Devnet;
  origins: TestOrigins;
  dataDir: string;
  eventStoreUrl?: string;
  logLevel: string;
}): Record<string, string> {
  return {
    ...o.origins.env,
    DATA_DIR: o.dataDir,
    EVENT_STORE_URL: o.eventStoreUrl ?? `file:${path.join(o.dataDir, 'events')}`,
    RPC_URL: o.devnet.rpcUrl,
    RELAYER_PRIVATE_KEY: o.devnet.relayer.privateKey,
    PAY_TO: o.devnet.payTo,
    DEVNET: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_LISTEN: '127.0.0.1:0',
    LOG_LEVEL: o.logLevel,
    // Recovery is driven by the tests that need it; a background sweep would race them.
    RECOVERY_INTERVAL_MS: '600000',
    ...LOCAL_RATE_LIMITS,
  };
}

/** A service logger whose every line is also kept in memory. */
export function capturedLogger(level: string): { log: Logger; text: () => string } {
  let text = '';
  const log = createLogger(
    level,
    new Writable({
      write(chunk, _enc, cb) {
        text += chunk.toString('utf8');
        cb();
      },
    }),
  );
  return { log, text: () => text };
}

export interface LocalWorldParts {
  devnet: Devnet;
  origins: TestOrigins;
  dataDir: string;
  /** Runs the cleanups registered so far, last first; never throws. */
  closeAll(): Promise<void>;
  onClose(cleanup: () => Promise<void>): void;
}

/** Devnet, publishers and a temp data dir, torn down in reverse order (also when a later step fails). */
export async function startLocalParts(
  site: OriginSite,
  tmpPrefix: string,
  devnetOptions: DevnetOptions = {},
): Promise<LocalWorldParts> {
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch {
        /* keep closing */
      }
    }
  };
  try {
    const devnet = await startDevnet(devnetOptions);
    cleanups.push(() => devnet.stop());
    const origins = await startTestOrigins(site);
    cleanups.push(() => origins.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), tmpPrefix));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    return {
      devnet,
      origins,
      dataDir,
      closeAll,
      onClose: (c) => {
        cleanups.push(c);
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

export interface LocalWorld {
  devnet: Devnet;
  origins: TestOrigins;
  dataDir: string;
  /** The service environment of this world (the store, the chain, the publishers). */
  env: Record<string, string>;
  /** The running in-process service: set by the start (`start: false` leaves it for the caller). */
  service: RunningService;
  url: string;
  /** Every line every in-process service of this world logged. */
  logs(): string;
  /** Starts the service in this process on the world's store (again after a stop), `env` added. */
  start(opts?: ServiceOptions & { env?: Record<string, string> }): Promise<RunningService>;
  /** Runs `cleanup` on close, before the parts started before it. */
  onClose(cleanup: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface LocalWorldOptions {
  logLevel?: string;
  tmpPrefix?: string;
  /** Options of the first start; `false`: no service yet (the caller starts it, in this process or another). */
  service?: (ServiceOptions & { env?: Record<string, string> }) | false;
  devnet?: DevnetOptions;
  /** Another store than the embedded one in the data dir (e.g. PostgreSQL). */
  eventStoreUrl?: string;
  /** Added to the service environment. */
  env?: Record<string, string>;
  /** Runs on the new data dir before any service starts (tests seed its stores from a template). */
  prepareDataDir?: (dataDir: string) => Promise<void>;
}

/** The one builder of a local world: devnet, publishers, data dir and (unless told not to) the service. */
export async function startLocalWorld(site: OriginSite, o: LocalWorldOptions = {}): Promise<LocalWorld> {
  const parts = await startLocalParts(site, o.tmpPrefix ?? 'rights-world-', o.devnet);
  try {
    await o.prepareDataDir?.(parts.dataDir);
    const level = o.logLevel ?? 'warn';
    const logger = capturedLogger(level);
    const blockMs = o.devnet?.blockMs;
    const env = {
      ...localServiceEnv({
        ...parts,
        logLevel: level,
        ...(o.eventStoreUrl ? { eventStoreUrl: o.eventStoreUrl } : {}),
      }),
      ...(blockMs !== undefined ? { CHAIN_BLOCK_MS: String(blockMs) } : {}),
      ...o.env,
    };
    let stopped = false;
    const world: LocalWorld = {
      devnet: parts.devnet,
      origins: parts.origins,
      dataDir: parts.dataDir,
      env,
      service: undefined as unknown as RunningService, // set by start(), which every caller awaits first
      url: '',
      logs: logger.text,
      async start(so = {}) {
        const service = await startService(serviceConfig(loadConfig({ ...env, ...so.env })), logger.log, so);
        parts.onClose(() => service.stop());
        world.service = service;
        world.url = service.url;
        return service;
      },
      onClose: parts.onClose,
      async close() {
        if (stopped) return;
        stopped = true;
        await parts.closeAll();
      },
    };
    if (o.service !== false) await world.start(o.service);
    return world;
  } catch (err) {
    await parts.closeAll();
    throw err;
  }
}
