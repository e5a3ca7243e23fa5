import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The development buyer's settings, written by `npm start` in development to DATA_DIR/buyer.env, so the
// buyer CLI reaches this service with every pin in one flag (docs/decisions.md, "The first hour"):
//   npx rights-preflight buy <url> --purpose ai-input --env-file data/buyer.env
// Its key is a Hardhat test key funded on the local devnet only: never in production (no devnet there).

export const BUYER_ENV_FILE = 'buyer.env';

export interface DevelopmentBuyer {
  serviceUrl: string;
  network: string;
  asset: string;
  payTo: string;
  evidencePublicKey: string;
  privateKey: string;
}

export function buyerEnvText(b: DevelopmentBuyer): string {
  return [
    '# DEVELOPMENT ONLY: the local devnet started by npm start (test keys, no real funds). Rewritten each start.',
    `RIGHTS_SERVICE_URL=${b.serviceUrl}`,
    `BUYER_NETWORK=${b.network}`,
    `BUYER_ASSET=${b.asset}`,
    `BUYER_RECIPIENT=${b.payTo}`,
    `BUYER_EVIDENCE_KEY=${b.evidencePublicKey}`,
    `BUYER_PRIVATE_KEY=${b.privateKey}`,
    '',
  ].join('\n');
}

/** Writes DATA_DIR/buyer.env (mode 0600) and returns its path. */
export async function writeBuyerEnv(dataDir: string, b: DevelopmentBuyer): Promise<string> {
  const file = path.join(dataDir, BUYER_ENV_FILE);
  await writeFile(file, buyerEnvText(b), { mode: 0o600 });
  await chmod(file, 0o600);
  return file;
}
