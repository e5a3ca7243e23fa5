import type { OriginSite } from './https-origin.js';

// The demo's four RSL publishers (one permitted, one prohibited, one license-required, one without any
// declaration): served by `npm run demo`'s local world and, in development, beside `npm start`
// (src/devnet/dev-publishers.ts). Plain data, so the devnet's process loads nothing of the service for it.

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
const robots = (host: string) => ({
  type: 'text/plain',
  body: `User-agent: *\nAllow: /\nLicense: https://${host}/license.xml\n`,
});
const license = (body: string) => ({ type: 'application/rsl+xml', body: rsl(body) });

export function demoSite(): OriginSite {
  return {
    'open.demo.example': {
      '/robots.txt': robots('open.demo.example'),
      '/license.xml': license(
        '<permits type="usage">ai-input ai-index search</permits>' +
          '<prohibits type="usage">ai-train</prohibits><payment type="free"/>',
      ),
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
