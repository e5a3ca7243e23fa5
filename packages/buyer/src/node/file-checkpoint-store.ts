import { mkdir, open as openFile, readFile, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import { SealedBox } from '@rights-preflight/wire/crypto/aes-gcm.js';
import { encryptedCheckpointStore, type CheckpointStore, type SealedBoxStore } from '../checkpoint-store.js';
import { PurchaseId } from '@rights-preflight/wire/contract/common.js';

// File-backed encrypted checkpoints for Node: one sealed box per purchase in `dir` (mode 0700), each
// file written atomically (temp file 0600 → fsync → rename → fsync dir). The AES-256-GCM key comes
// from the caller; the files hold ciphertext only.

export function fileBoxStore(dir: string): SealedBoxStore {
  const file = (id: string) => {
    if (!PurchaseId.is(id)) throw new RangeError('a checkpoint id is a 64-hex purchase id');
    return path.join(dir, `${id}.json`);
  };
  return {
    async put(id, box) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const target = file(id);
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      const fh = await openFile(tmp, 'wx', 0o600);
      try {
        await fh.writeFile(JSON.stringify(box));
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, target);
      const d = await openFile(dir, 'r');
      try {
        await d.sync();
      } catch {
        /* some filesystems cannot fsync a directory */
      } finally {
        await d.close();
      }
    },
    async get(id) {
      let text: string;
      try {
        text = await readFile(file(id), 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      const decoded = SealedBox.decode(JSON.parse(text));
      if (isLeft(decoded)) throw new Error('checkpoint file is not a sealed box');
      return decoded.right;
    },
    async delete(id) {
      await rm(file(id), { force: true });
    },
    async list() {
      try {
        return (await readdir(dir))
          .filter((n) => n.endsWith('.json') && PurchaseId.is(n.slice(0, -'.json'.length)))
          .map((n) => n.slice(0, -'.json'.length));
      } catch {
        return [];
      }
    },
  };
}

/** Encrypted, file-backed checkpoint store; `key32` is the caller's 32-byte AES-256-GCM key. */
export function fileCheckpointStore(dir: string, key32: Uint8Array): CheckpointStore {
  return encryptedCheckpointStore(key32, fileBoxStore(dir));
}
