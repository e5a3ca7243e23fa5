import { createHash, createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Ed25519 evidence key: EVIDENCE_KEY (32-byte seed, hex) or `<dataDir>/evidence-key.hex`, generated on
// first start. Key id = first 16 hex of sha256(public key). Minimal version written by the money-path
// owner because signing was needed before the evidence owner's module landed.

export interface EvidenceKey { keyId: string; publicKeyHex: string; privateKey: KeyObject }

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function evidenceKeyFromSeed(seed: Uint8Array): EvidenceKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const pub = spki.subarray(spki.length - 32);
  return { keyId: createHash('sha256').update(pub).digest('hex').slice(0, 16), publicKeyHex: pub.toString('hex'), privateKey };
}

export async function loadEvidenceKey(configuredHex: string | undefined, dataDir: string): Promise<EvidenceKey> {
  return evidenceKeyFromSeed(await loadOrCreateSecret(configuredHex, dataDir, 'evidence-key.hex'));
}

/** A 32-byte secret from configuration, else from `<dataDir>/<file>`, generated (0600) on first start. */
export async function loadOrCreateSecret(configuredHex: string | undefined, dataDir: string, file: string): Promise<Buffer> {
  if (configuredHex) return Buffer.from(configuredHex, 'hex');
  const p = path.join(dataDir, file);
  await mkdir(dataDir, { recursive: true });
  await writeFile(p, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' }).catch((err) => {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // keep the existing secret
  });
  const hex = (await readFile(p, 'utf8')).trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${p} does not hold 64 hex characters`);
  return Buffer.from(hex, 'hex');
}
