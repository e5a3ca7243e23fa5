import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

// Real HTTPS origins on loopback for the integration tests: a throwaway CA and one leaf
// certificate for every test host name, generated with the openssl CLI at test time, and one
// HTTPS server on 127.0.0.1 that dispatches on Host + path.

export interface TestCerts {
  dir: string;
  caFile: string;
  caPem: string;
  key: string;
  cert: string;
}

/** A new P-256 key, unencrypted, for `openssl req` (the CA's and the leaf's). */
const NEW_P256_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makeCerts(hosts: readonly string[]): TestCerts {
  const dir = mkdtempSync(path.join(tmpdir(), 'rsl-tls-'));
  const run = (args: string[]) => execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });
  run([
    'req',
    '-x509',
    ...NEW_P256_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=RSL Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run(['req', ...NEW_P256_KEY, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${hosts[0]}`]);
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(',')}\n` +
      'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n',
  );
  run([
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
  ]);
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    caPem: readFileSync(path.join(dir, 'ca.pem'), 'utf8'),
    key: readFileSync(path.join(dir, 'leaf.key'), 'utf8'),
    cert: readFileSync(path.join(dir, 'leaf.pem'), 'utf8'),
  };
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestOrigins {
  port: number;
  route(host: string, path: string, handler: Handler): void;
  hits(host: string, path: string): number;
  close(): Promise<void>;
}

export async function startOrigins(certs: TestCerts): Promise<TestOrigins> {
  const routes = new Map<string, Handler>();
  const counts = new Map<string, number>();
  const server = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    const key = `${(req.headers.host ?? '').toLowerCase()}${req.url ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const handler = routes.get(key);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    route: (host, p, handler) => routes.set(`${host}${p}`, handler),
    hits: (host, p) => counts.get(`${host}${p}`) ?? 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(certs.dir, { recursive: true, force: true });
    },
  };
}

export const send =
  (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': type, ...headers }).end(body);
  };
