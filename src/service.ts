import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { createApp } from './http/app.js';
import { openStore } from './store/open.js';

export interface RunningService {
  url: string;
  storeKind: string;
  stop(): Promise<void>;
}

/** Composes the service from configuration: store, engines, routes. */
export async function startService(config: Config, log: Logger): Promise<RunningService> {
  await mkdir(config.dataDir, { recursive: true });
  const store = await openStore(config.eventStoreUrl, { log });
  const app = createApp({ log, ready: async () => true, routers: [] });
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => { server.once('listening', resolve); server.once('error', reject); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host}:${port}`,
    storeKind: store.kind,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await store.close();
    },
  };
}
