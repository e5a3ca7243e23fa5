import https from 'node:https';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

// Real HTTPS publishers on loopback under their real names (shared by the local world, the demo and
// every test that needs an RSL origin). One self-signed certificate covers all the hostnames; the
// service reaches them through FETCH_CONNECT_TO and trusts the certificate through
// FETCH_EXTRA_CA_FILE, exactly as in production but for the address the name resolves to.

export interface OriginPage {
  status?: number;
  type?: string;
  body: string;
  headers?: Record<string, string>;
  /** Send the status line and headers, then nothing until the connection is closed (a stalled publisher). */
  stall?: true;
}
/** host → path → page (e.g. 'pub.example': { '/robots.txt': …, '/license.xml': …, '/article': … }). */
export type OriginSite = Record<string, Record<string, OriginPage>>;

export interface TestOrigins {
  /** e.g. https://pub.example */
  origins: string[];
  caFile: string;
  /** value for FETCH_CONNECT_TO */
  connectTo: string;
  /** environment for a service that fetches these origins */
  env: Record<string, string>;
  /** Every request; `conditional` when it carried If-None-Match / If-Modified-Since, `status` as answered. */
  requests: { host: string; path: string; conditional?: boolean; status?: number }[];
  close(): Promise<void>;
}

/** A certificate for the publishers' hostnames that is its own CA (basicConstraints cA), as PEM. */
export interface PublisherCertificate {
  cert: string;
  key: string;
}

/** A self-signed P-256 certificate for `hosts`, usable as the CA a fetcher trusts (FETCH_EXTRA_CA_FILE). */
export async function publisherCertificate(hosts: string[]): Promise<PublisherCertificate> {
  const pem = await generate([{ name: 'commonName', value: hosts[0]! }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: hosts.map((h) => ({ type: 2 as const, value: h })) },
    ],
  });
  return { cert: pem.cert, key: pem.private };
}

/** Serves `site` over HTTPS on loopback; `certificate` (with its CA file) instead of a fresh one. */
export async function startTestOrigins(
  site: OriginSite,
  opts: { certificate?: PublisherCertificate & { caFile: string } } = {},
): Promise<TestOrigins> {
  const hosts = Object.keys(site);
  const pem = opts.certificate ?? (await publisherCertificate(hosts));
  const dir = opts.certificate ? undefined : await mkdtemp(path.join(tmpdir(), 'rights-origin-'));
  const caFile = opts.certificate?.caFile ?? path.join(dir!, 'ca.pem');
  if (dir) await writeFile(caFile, pem.cert);
  const requests: TestOrigins['requests'] = [];
  const server = https.createServer({ key: pem.key, cert: pem.cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const p = (req.url ?? '/').split('?')[0]!;
    const conditional = req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    const seen: TestOrigins['requests'][number] = { host, path: p, ...(conditional ? { conditional } : {}) };
    requests.push(seen);
    const page = site[host]?.[p];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    // A page served with an ETag validates it: the same ETag asked for again is 304 Not Modified.
    const etag = page.headers?.etag;
    if (etag !== undefined && req.headers['if-none-match'] === etag) {
      seen.status = 304;
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    seen.status = page.status ?? 200;
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...page.headers });
    if (page.stall) return void res.flushHeaders();
    res.end(req.method === 'HEAD' ? undefined : page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connectTo = hosts.map((h) => `${h}:127.0.0.1:${port}`).join(',');
  const origins = hosts.map((h) => `https://${h}`);
  return {
    origins,
    caFile,
    connectTo,
    env: {
      COVERED_ORIGINS: origins.join(','),
      FETCH_ALLOW_LOOPBACK: 'true',
      FETCH_EXTRA_CA_FILE: caFile,
      FETCH_CONNECT_TO: connectTo,
    },
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A minimal RSL 1.0 document (reference/rsl.md) for tests: one content scope, the given permits/prohibits. */
export function rslDocument(opts: { url: string; permits?: string[]; prohibits?: string[] }): string {
  const permits = opts.permits?.length
    ? `<permits type="usage">${opts.permits.join(' ')}</permits><payment type="free"/>`
    : '';
  const prohibits = opts.prohibits?.length ? `<prohibits type="usage">${opts.prohibits.join(' ')}</prohibits>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsl xmlns="https://rslstandard.org/rsl">
  <content url="${opts.url}">
    <license>${permits}${prohibits}</license>
  </content>
</rsl>
`;
}
