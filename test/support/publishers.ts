import { rslDocument, type OriginSite } from '../../ops/world/https-origin.js';

// The publishers of every test world (defined once; the demo's four live in ops/demo/site.ts): one
// RSL publisher that permits ai-input, ai-index and search and prohibits ai-train, and one without
// any declaration (with a page that is down).

export const PUB = 'https://pub.example';
export const ARTICLE = (n: number) => `${PUB}/articles/${n}`;
/** The declared article of the money-path tests. */
export const DECLARED = `${PUB}/articles/one`;
export const UNDECLARED = 'https://bare.example/page';
export const BARE = UNDECLARED;

const page = (title: string, body: string) => ({
  body: `<html><head><title>${title}</title></head><body>${body}</body></html>`,
});

export function publisherSite(): OriginSite {
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
      '/articles/one': page('One', 'Article'),
      '/articles/two': page('Two', 'Article'),
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`/articles/${n}`, page(`Article ${n}`, `Article ${n}`)])),
    },
    'bare.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': page('Bare', 'No declaration'),
      '/down': { status: 503, body: 'maintenance' },
    },
  };
}
