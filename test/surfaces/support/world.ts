import { rslDocument } from '../../../ops/world/https-origin.js';
import { startLocalWorld, type LocalWorld } from '../../../ops/world/local-world.js';

// One world per test file for the paid surfaces: the real devnet (Base USDC at its real address),
// real HTTPS publishers on loopback, the real service on a real embedded store, all logs captured.

export const PUB = 'https://pub.example';
export const ARTICLE = (n: number) => `${PUB}/articles/${n}`;
export const BARE = 'https://bare.example/page';

function site() {
  const article = (n: number) => ({
    body: `<html><head><title>Article ${n}</title></head><body>Article ${n}</body></html>`,
  });
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
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/articles/${n}`, article(n)])),
    },
    'bare.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': { body: '<html><head><title>Bare</title></head><body>No declaration</body></html>' },
      '/down': { status: 503, body: 'maintenance' },
    },
  };
}

export type SurfacesWorld = LocalWorld;

export const surfacesWorld = (): Promise<SurfacesWorld> =>
  startLocalWorld(site(), { logLevel: 'debug', tmpPrefix: 'rights-surfaces-' });

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}
