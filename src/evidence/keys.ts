import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import type { ByteSigner } from '@rights-preflight/wire/evidence/envelope.js';
import {
  ED25519,
  KeyId,
  PublicKeyHex,
  publicKeyInfo,
  type PublicKeyInfo,
} from '@rights-preflight/wire/evidence/public-key.js';
import { createExclusive, readIfExists, seedFromHex } from '../secrets/secret-file.js';
import { nodeByteSigner } from './sign-node.js';
import { Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// The service's Ed25519 evidence key: `EVIDENCE_KEY` (32-byte seed, hex), else `<dataDir>/evidence-key.json`,
// generated with mode 0600 on first start (development). The seed lives only inside the signer's
// closure: an EvidenceKey can be logged or JSON-serialized without leaking it.

export interface EvidenceKey extends ByteSigner {
  readonly keyId: string;
  readonly publicKeyHex: string;
  /** What /v1/capabilities publishes and buyers pin. */
  readonly info: PublicKeyInfo;
}

export const EVIDENCE_KEY_FILE = 'evidence-key.json';
/** Written by the first (money-path) version of this module; still read so existing dev data keeps its key. */
export const LEGACY_EVIDENCE_KEY_FILE = 'evidence-key.hex';

const EvidenceKeyFile = t.type({
  version: t.literal(1),
  algorithm: t.literal(ED25519),
  key_id: KeyId,
  public_key: PublicKeyHex,
  seed: Sha256Hex,
  created_at: t.string,
});

export function evidenceKeyFromSeed(
  seed: Uint8Array,
  signer: (seed: Uint8Array) => ByteSigner = nodeByteSigner,
): EvidenceKey {
  const raw = signer(seed);
  const info = publicKeyInfo(raw.publicKey);
  return {
    keyId: info.key_id,
    publicKeyHex: info.public_key,
    info,
    publicKey: raw.publicKey,
    signBytes: raw.signBytes,
  };
}

/** EVIDENCE_KEY, else the key file (legacy `.hex` file honoured), else a new key file (when allowed). */
export async function loadEvidenceKey(
  configuredHex: string | undefined,
  dataDir: string,
  opts: { generate?: boolean } = {},
): Promise<EvidenceKey> {
  if (configuredHex) return evidenceKeyFromSeed(seedFromHex(configuredHex));
  const file = path.join(dataDir, EVIDENCE_KEY_FILE);
  const existing = await readIfExists(file);
  if (existing !== undefined) return keyFromFile(file, existing);
  const legacy = await readIfExists(path.join(dataDir, LEGACY_EVIDENCE_KEY_FILE));
  if (legacy !== undefined) return evidenceKeyFromSeed(seedFromHex(legacy, LEGACY_EVIDENCE_KEY_FILE));
  if (opts.generate === false)
    throw new Error(
      `no evidence key: set EVIDENCE_KEY (64 hex characters) or provide ${file}; ` +
        'keys are never generated in production',
    );

  const seed = new Uint8Array(randomBytes(32));
  const key = evidenceKeyFromSeed(seed);
  const content =
    JSON.stringify(
      {
        version: 1,
        algorithm: ED25519,
        key_id: key.keyId,
        public_key: key.publicKeyHex,
        seed: bytesToHex(seed),
        created_at: new Date().toISOString(),
      },
      null,
      2,
    ) + '\n';
  seed.fill(0);
  const won = await createExclusive(file, content);
  // Another process created it first: use its key, never overwrite (reports are already signed with it).
  return won ? key : keyFromFile(file, await readFile(file, 'utf8'));
}

export const loadEvidenceKeyFromConfig = (
  config: { evidenceKeyHex: string | undefined; dataDir: string },
  opts: { generate?: boolean } = {},
) => loadEvidenceKey(config.evidenceKeyHex, config.dataDir, opts);

function keyFromFile(file: string, text: string): EvidenceKey {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  const decoded = EvidenceKeyFile.decode(json);
  if (isLeft(decoded)) throw new Error(`${file} is not an evidence key file (version 1, Ed25519)`);
  const key = evidenceKeyFromSeed(hexToBytes(decoded.right.seed));
  // A hand-edited or corrupted file must not silently sign under another key than it advertises.
  if (key.publicKeyHex !== decoded.right.public_key || key.keyId !== decoded.right.key_id) {
    throw new Error(`${file}: public_key/key_id do not match the seed`);
  }
  return key;
}
