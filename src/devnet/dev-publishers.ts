import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { demoSite, DEMO_RESOURCES } from './demo-site.js';
import { publisherCertificate, startTestOrigins, type PublisherCertificate } from './https-origin.js';

// The example publishers `npm start` serves in development (docs/decisions.md, "The first hour (issue
// 27)"): the demo's four (one permitted, one license-required, one prohibited, one without any
// declaration) over HTTPS on loopback, under a development CA kept in DATA_DIR/dev-publishers/ so the
// service (which trusts it through FETCH_EXTRA_CA_FILE only, never the system store) and a buyer see
// the same certificate across restarts. Run inside the devnet's process (src/devnet/main.ts
// --publishers DIR): the service never imports ops/.

export interface DevelopmentPublishers {
  origins: string[];
  caFile: string;
  connectTo: string;
  /** One example URL of each kind. */
  resources: typeof DEMO_RESOURCES;
  close(): Promise<void>;
}

/** The development CA of `dir` (created once: certificate and its key, the key readable by its owner only). */
async function developmentCa(dir: string, hosts: string[]): Promise<PublisherCertificate & { caFile: string }> {
  const caFile = path.join(dir, 'ca.pem');
  const keyFile = path.join(dir, 'ca-key.pem');
  const [cert, key] = await Promise.all([
    readFile(caFile, 'utf8').catch(() => undefined),
    readFile(keyFile, 'utf8').catch(() => undefined),
  ]);
  if (cert && key) return { cert, key, caFile };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const made = await publisherCertificate(hosts);
  await writeFile(keyFile, made.key, { mode: 0o600 });
  await chmod(keyFile, 0o600);
  await writeFile(caFile, made.cert);
  return { ...made, caFile };
}

export async function startDevelopmentPublishers(dir: string): Promise<DevelopmentPublishers> {
  const site = demoSite();
  const certificate = await developmentCa(dir, Object.keys(site));
  const origins = await startTestOrigins(site, { certificate });
  return {
    origins: origins.origins,
    caFile: origins.caFile,
    connectTo: origins.connectTo,
    resources: DEMO_RESOURCES,
    close: () => origins.close(),
  };
}
