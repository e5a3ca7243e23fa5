import { Writable } from 'node:stream';
import { loadConfig, serviceConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService, type ServiceOptions } from '../../src/service.js';
import type { Devnet, DevnetOptions } from '../../ops/devnet/devnet.js';
import { localServiceEnv, startLocalParts } from '../../ops/world/local-world.js';
import { rslDocument, type TestOrigins } from '../../ops/world/https-origin.js';

// One money-path world for a test file: a real devnet (this process), real HTTPS publishers on
// loopback, and the real service on a real store, with every log line kept for the secret grep.

export const DECLARED = 'https://pub.example/articles/one';
export const UNDECLARED = 'https://bare.example/page';

export function publisherSite() {
  return {
    'pub.example': {
      '/robots.txt': {
        type: 'text/plain',
        body: 'User-agent: *\nAllow: /\nLicense: https://pub.example/license.xml\n',
      },
      '/license.xml': {
        type: 'application/rsl+xml',
        body: rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'search'], prohibits: ['ai-train'] }),
      },
      '/articles/one': { body: '<html><head><title>One</title></head><body>Article</body></html>' },
      '/articles/two': { body: '<html><head><title>Two</title></head><body>Article</body></html>' },
    },
    'bare.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': { body: '<html><head><title>Bare</title></head><body>No declaration</body></html>' },
    },
  };
}

export interface MoneyWorld {
  devnet: Devnet;
  origins: TestOrigins;
  dataDir: string;
  env: Record<string, string>;
  logs: () => string;
  sink: (chunk: string) => void;
  service?: RunningService;
  url: string;
  start(opts?: ServiceOptions & { env?: Record<string, string> }): Promise<RunningService>;
  close(): Promise<void>;
}

export async function moneyWorld(opts: { eventStoreUrl?: string; devnet?: DevnetOptions } = {}): Promise<MoneyWorld> {
  const parts = await startLocalParts(publisherSite(), 'rights-money-', opts.devnet);
  let logText = '';
  const sink = (chunk: string) => {
    logText += chunk;
  };
  const env = localServiceEnv({
    ...parts,
    logLevel: 'debug',
    ...(opts.eventStoreUrl ? { eventStoreUrl: opts.eventStoreUrl } : {}),
  });
  const world: MoneyWorld = {
    devnet: parts.devnet,
    origins: parts.origins,
    dataDir: parts.dataDir,
    env,
    sink,
    logs: () => logText,
    url: '',
    async start(o = {}) {
      const config = serviceConfig(loadConfig({ ...env, ...(o.env ?? {}) }));
      const log = createLogger(
        'debug',
        new Writable({
          write(chunk, _enc, cb) {
            sink(chunk.toString('utf8'));
            cb();
          },
        }),
      );
      const service = await startService(config, log, o);
      world.service = service;
      world.url = service.url;
      return service;
    },
    async close() {
      await world.service?.stop();
      await parts.closeAll();
    },
  };
  return world;
}

export async function postQuote(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/rights/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

export async function getReport(url: string, reportUrl: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${reportUrl}`, { headers });
  return {
    status: res.status,
    headers: res.headers,
    text: await res.text(),
    get body() {
      return JSON.parse(this.text) as any;
    },
  };
}
