import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { startDevnet, type Devnet } from '../devnet/devnet.js';
import { startTestOrigins, type OriginSite, type TestOrigins } from '../../test/support/https-origin.js';

// The demo world, shared by `npm run demo` and test/buyer: a fresh in-process devnet (Base USDC at its
// real address, funded buyers), real HTTPS RSL publishers on loopback (self-signed certificate made at
// run time, reached through FETCH_CONNECT_TO, trusted through FETCH_EXTRA_CA_FILE), and the real
// service on the embedded store in a temp data dir. test/support/https-origin.ts is plain Node (no ava),
// so it is reused here rather than copied.

export const DEMO_RESOURCES = {
  permitted: 'https://open.demo.example/articles/climate',
  prohibited: 'https://closed.demo.example/articles/markets',
  licenseRequired: 'https://licensed.demo.example/articles/research',
  undeclared: 'https://bare.demo.example/page',
} as const;

const rsl = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/">
    <license>${body}</license>
  </content>
</rsl>
`;
const page = (title: string) => ({ body: `<html><head><title>${title}</title></head><body>${title}</body></html>` });
const robots = (host: string) => ({ type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${host}/license.xml\n` });
const license = (body: string) => ({ type: 'application/rsl+xml', body: rsl(body) });

export function demoSite(): OriginSite {
  return {
    'open.demo.example': {
      '/robots.txt': robots('open.demo.example'),
      '/license.xml': license('<permits type="usage">ai-input ai-index search</permits><prohibits type="usage">ai-train</prohibits><payment type="free"/>'),
      '/articles/climate': page('Climate'),
      '/articles/weather': page('Weather'),
      '/articles/oceans': page('Oceans'),
      '/articles/forests': page('Forests'),
      '/articles/rivers': page('Rivers'),
    },
    'closed.demo.example': {
      '/robots.txt': robots('closed.demo.example'),
      '/license.xml': license('<prohibits type="usage">ai-input ai-index ai-train search</prohibits>'),
      '/articles/markets': page('Markets'),
    },
    'licensed.demo.example': {
      '/robots.txt': robots('licensed.demo.example'),
      '/license.xml': license('<permits type="usage">ai-input ai-index search</permits><payment type="purchase"/>'),
      '/articles/research': page('Research'),
    },
    'bare.demo.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': page('No declaration'),
    },
  };
}

export interface DemoWorld {
  devnet: Devnet;
  origins: TestOrigins;
  service: RunningService;
  url: string;
  dataDir: string;
  logs(): string;
  close(): Promise<void>;
}

export async function startDemoWorld(opts: { logLevel?: string } = {}): Promise<DemoWorld> {
  const devnet = await startDevnet();
  const cleanups: (() => Promise<void>)[] = [() => devnet.stop()];
  const closeAll = async () => { for (const c of cleanups.reverse()) { try { await c(); } catch { /* keep closing */ } } };
  try {
    const origins = await startTestOrigins(demoSite());
    cleanups.push(() => origins.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-demo-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let logText = '';
    const config = loadConfig({
      ...origins.env,
      DATA_DIR: dataDir,
      EVENT_STORE_URL: `file:${path.join(dataDir, 'events')}`,
      RPC_URL: devnet.rpcUrl,
      RELAYER_PRIVATE_KEY: devnet.relayer.privateKey,
      PAY_TO: devnet.payTo,
      DEVNET: 'off',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: opts.logLevel ?? 'warn',
      RECOVERY_INTERVAL_MS: '600000',
    });
    const log = createLogger(opts.logLevel ?? 'warn', new Writable({ write(chunk, _enc, cb) { logText += chunk.toString('utf8'); cb(); } }));
    const service = await startService(config, log);
    cleanups.push(() => service.stop());
    return { devnet, origins, service, url: service.url, dataDir, logs: () => logText, close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
