import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { startService, type RunningService } from '../../../src/service.js';
import { startDevnet, type Devnet } from '../../../ops/devnet/devnet.js';
import { rslDocument, startTestOrigins, type TestOrigins } from '../../support/https-origin.js';

// One world per test file for the paid surfaces: the real devnet (Base USDC at its real address),
// real HTTPS publishers on loopback, the real service on a real embedded store, all logs captured.

export const PUB = 'https://pub.example';
export const ARTICLE = (n: number) => `${PUB}/articles/${n}`;
export const BARE = 'https://bare.example/page';

function site() {
  const article = (n: number) => ({ body: `<html><head><title>Article ${n}</title></head><body>Article ${n}</body></html>` });
  return {
    'pub.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\nLicense: https://pub.example/license.xml\n' },
      '/license.xml': { type: 'application/rsl+xml', body: rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'search'], prohibits: ['ai-train'] }) },
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/articles/${n}`, article(n)])),
    },
    'bare.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': { body: '<html><head><title>Bare</title></head><body>No declaration</body></html>' },
    },
  };
}

export interface SurfacesWorld {
  devnet: Devnet;
  origins: TestOrigins;
  service: RunningService;
  url: string;
  logs: () => string;
  close(): Promise<void>;
}

export async function surfacesWorld(): Promise<SurfacesWorld> {
  const devnet = await startDevnet();
  const origins = await startTestOrigins(site());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-surfaces-'));
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
    LOG_LEVEL: 'debug',
    RECOVERY_INTERVAL_MS: '600000',
  });
  const log = createLogger('debug', new Writable({ write(chunk, _enc, cb) { logText += chunk.toString('utf8'); cb(); } }));
  const service = await startService(config, log);
  return {
    devnet, origins, service, url: service.url,
    logs: () => logText,
    async close() {
      await service.stop();
      await origins.close();
      await devnet.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer { status: number; headers: Headers; text: string; body: any }

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try { parsed = JSON.parse(text); } catch { parsed = undefined; }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
