import test from 'ava';
import { mkdtemp, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileCheckpointStore } from '../src/node/file-checkpoint-store.js';
import type { BuyerCheckpoint } from '../src/index.js';

const cp = (id: string): BuyerCheckpoint => ({
  version: 'buyer-checkpoint-v1',
  flow: 'quote',
  purchase_id: id,
  base_url: 'http://127.0.0.1:1',
  path: `/v1/rights/reports/${id}`,
  key: 'c'.repeat(64),
  payment_signature: 'eyJTECRET-HEADER',
  offer_receipt: {},
  expected: {
    network: 'eip155:8453',
    asset: '0x1',
    pay_to: '0x2',
    amount: '20000',
    payer: '0x3',
    nonce: '0x4',
    resource: 'https://a.example/',
    input_sha256: 'd'.repeat(64),
  },
  created_at: new Date().toISOString(),
});

test(
  'file checkpoints are sealed (ciphertext only, 0600), ' +
    'reopen with the key, not with another key or under another id',
  async (t) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'buyer-cp-'));
    try {
      const key = randomBytes(32);
      const store = fileCheckpointStore(dir, key);
      const [a, b] = ['a'.repeat(64), 'b'.repeat(64)];
      const saved = cp(a);
      await store.save(saved);
      const file = path.join(dir, `${a}.json`);
      t.is((await stat(file)).mode & 0o777, 0o600);
      const text = await readFile(file, 'utf8');
      t.false(text.includes('SECRET') || text.includes('c'.repeat(64)));
      t.deepEqual(await readdir(dir), [`${a}.json`]); // no temp file left behind
      t.deepEqual(await store.load(a), saved);
      t.deepEqual(await store.ids(), [a]);
      await t.throwsAsync(fileCheckpointStore(dir, randomBytes(32)).load(a), { code: 'SEAL_OPEN_FAILED' } as any);
      await rename(file, path.join(dir, `${b}.json`));
      await t.throwsAsync(store.load(b), { code: 'SEAL_OPEN_FAILED' } as any);
      await store.remove(b);
      t.is(await store.load(b), undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
