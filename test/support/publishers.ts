import { rslDocument, type OriginSite } from '../../src/devnet/https-origin.js';

// The publishers of every test world (defined once; the demo's four live in src/devnet/demo-site.ts): one
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

// Publishers of the AI-use signals beside RSL (docs/wire.md §15): one site per standard and channel, each also
// declaring through RSL that every use is permitted free (so a report is sold, and a signal that
// reserves is RESTRICTED_BY_OTHER_SIGNAL beside PERMITTED_BY_OBSERVED_DECLARATION); one without RSL;
// one with a malformed statement of every standard; tdmrep.json files that cannot be used.

/** A signal publisher's page, and the host it is served from. */
export const SIGNAL_PAGE = (host: string, path = '/page') => `https://${host}${path}`;
/** tdmrep.json: location patterns, the first rule matching the resource's path decides. */
export const TDMREP_FILE = 'tdmrep-file.example';
export const TDMREP_RULES = [
  { location: '/reserved/*', 'tdm-reservation': 1, 'tdm-policy': 'https://tdmrep-file.example/policy.json' },
  { location: '/open/*', 'tdm-reservation': 0 },
];

const FREE = rslDocument({ url: '/', permits: ['ai-input', 'ai-index', 'ai-train', 'search'] });
const withRsl = (host: string, robotsExtra = '') => ({
  '/robots.txt': {
    type: 'text/plain',
    body: `User-agent: *\nAllow: /\n${robotsExtra}License: https://${host}/rsl.xml\n`,
  },
  '/rsl.xml': { type: 'application/rsl+xml', body: FREE },
});
const metaPage = (meta: string) => ({
  body: `<html><head><title>Signals</title>${meta}</head><body>Article</body></html>`,
});

export function signalPublisherSite(): OriginSite {
  const plain = page('Signals', 'Article');
  return {
    [TDMREP_FILE]: {
      ...withRsl(TDMREP_FILE),
      '/.well-known/tdmrep.json': { type: 'application/json', body: JSON.stringify(TDMREP_RULES) },
      '/reserved/a': plain,
      '/open/a': plain,
    },
    'tdmrep-header.example': {
      ...withRsl('tdmrep-header.example'),
      '/page': { ...plain, headers: { 'tdm-reservation': '1', 'tdm-policy': 'https://tdmrep-header.example/p.json' } },
    },
    'tdmrep-meta.example': {
      ...withRsl('tdmrep-meta.example'),
      '/page': metaPage('<meta name="tdm-reservation" content="1">'),
    },
    'aipref-header.example': {
      ...withRsl('aipref-header.example'),
      '/page': { ...plain, headers: { 'content-usage': 'train-ai=n' } },
    },
    'aipref-robots.example': { ...withRsl('aipref-robots.example', 'Content-Usage: train-ai=n\n'), '/page': plain },
    'content-signals.example': {
      ...withRsl('content-signals.example', 'Content-Signal: search=yes, ai-train=no\n'),
      '/page': plain,
    },
    'noai-meta.example': { ...withRsl('noai-meta.example'), '/page': metaPage('<meta name="robots" content="noai">') },
    'noai-header.example': {
      ...withRsl('noai-header.example'),
      '/page': { ...plain, headers: { 'x-robots-tag': 'noai, noimageai' } },
    },
    // No RSL at all; an AI preference refuses training.
    'norsl-aipref.example': {
      '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      '/page': { ...plain, headers: { 'content-usage': 'train-ai=n' } },
    },
    // A malformed statement of every standard and channel: each is read as silent, with a reason.
    'malformed.example': {
      ...withRsl('malformed.example', 'Content-Usage: train-ai=perhaps\nContent-Signal: ai-train=maybe\n'),
      '/.well-known/tdmrep.json': { type: 'application/json', body: '{"location": "/", "tdm-reservation": 1' },
      '/page': {
        ...metaPage('<meta name="tdm-reservation" content="yes">'),
        headers: { 'tdm-reservation': '2', 'content-usage': 'train-ai=', 'x-robots-tag': 'noindex' },
      },
    },
    // tdmrep.json files that cannot be used: larger than robots.txt's limit, redirected, forbidden.
    'tdmrep-huge.example': {
      ...withRsl('tdmrep-huge.example'),
      '/.well-known/tdmrep.json': {
        type: 'application/json',
        body: `[${'{"location":"/x","tdm-reservation":0},'.repeat(14_000)}{"location":"/*","tdm-reservation":1}]`,
      },
      '/page': plain,
    },
    'tdmrep-redirect.example': {
      ...withRsl('tdmrep-redirect.example'),
      '/.well-known/tdmrep.json': {
        status: 301,
        body: '',
        headers: { location: 'https://tdmrep-file.example/.well-known/tdmrep.json' },
      },
      '/page': plain,
    },
    'tdmrep-forbidden.example': {
      ...withRsl('tdmrep-forbidden.example'),
      '/.well-known/tdmrep.json': { status: 403, type: 'text/plain', body: 'forbidden' },
      '/page': plain,
    },
  };
}

/** A publisher of a crawl (`crawlSite`): `pN.crawl.example`. */
export const CRAWL_HOST = (n: number) => `p${n}.crawl.example`;
export const CRAWL_PAGE = (n: number, page: number) => `https://${CRAWL_HOST(n)}/articles/${page}`;

/**
 * `publishers` RSL publishers of `pages` articles each, for bulk checks (test/buyer/check.test.ts,
 * bench/bulk.bench.ts): every third prohibits ai-input, the rest permit it, so a crawl's manifest has both.
 */
export function crawlSite(publishers: number, pages: number): OriginSite {
  const site: OriginSite = {};
  for (let n = 0; n < publishers; n++) {
    const host = CRAWL_HOST(n);
    const usage = ['ai-input', 'ai-index', 'search'];
    site[host] = {
      '/robots.txt': { type: 'text/plain', body: `User-agent: *\nAllow: /\nLicense: https://${host}/license.xml\n` },
      '/license.xml': {
        type: 'application/rsl+xml',
        body: rslDocument(
          n % 3 === 2 ? { url: '/', prohibits: usage } : { url: '/', permits: usage, prohibits: ['ai-train'] },
        ),
      },
      ...Object.fromEntries(
        Array.from({ length: pages }, (_, p) => [`/articles/${p}`, page(`${host} ${p}`, `Article ${p} of ${host}`)]),
      ),
    };
  }
  return site;
}
