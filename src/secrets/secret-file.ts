import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hexToBytes } from '@noble/hashes/utils.js';
import { Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// A 32-byte secret kept in a file of the data directory, as both keys keep theirs: the evidence key
// (src/evidence/keys.ts) and the checkpoint key (src/crypto/checkpoint-key.ts). Below both, so neither
// imports the other.

/** A 32-byte secret written as 64 hex characters; `variable` names it in the error. */
export function seedFromHex(hex: string, variable = 'EVIDENCE_KEY'): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex.trim())) throw new Error(`${variable} must be 64 hex characters (a 32-byte seed)`);
  return hexToBytes(hex.trim().toLowerCase());
}

/**
 * A 32-byte secret from configuration, else from `<dataDir>/<file>` (64 hex + newline), generated with
 * mode 0600 on first start. Used for the checkpoint key (src/crypto/checkpoint-key.ts).
 */
export async function loadOrCreateSecret(
  configuredHex: string | undefined,
  dataDir: string,
  file: string,
  opts: { generate?: boolean; variable?: string } = {},
): Promise<Buffer> {
  if (configuredHex) return Buffer.from(seedFromHex(configuredHex, opts.variable ?? file));
  const p = path.join(dataDir, file);
  let text = await readIfExists(p);
  if (text === undefined) {
    if (opts.generate === false)
      throw new Error(
        `no ${opts.variable ?? 'secret'}: set ${opts.variable ?? 'it'} (64 hex characters) or provide ${p}; ` +
          'secrets are never generated in production',
      );
    await createExclusive(p, randomBytes(32).toString('hex') + '\n');
    text = await readFile(p, 'utf8');
  }
  const hex = text.trim();
  if (!Sha256Hex.is(hex)) throw new Error(`${p} does not hold 64 hex characters`);
  return Buffer.from(hex, 'hex');
}

/** The file's text, or undefined when there is no such file. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes a secret file all-or-nothing: a 0600 temp file, then link() to the final name, which fails if
 * the name exists. A concurrent reader never sees a half-written key, and two first starts racing end
 * with one key. Returns false when the file already existed.
 */
export async function createExclusive(file: string, content: string): Promise<boolean> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, content, { mode: 0o600, flag: 'wx' });
  await chmod(tmp, 0o600); // whatever the umask
  try {
    await link(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}
