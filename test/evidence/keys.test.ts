import test from 'ava';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { isRight } from 'fp-ts/lib/Either.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { EVIDENCE_KEY_FILE, evidenceKeyFromSeed, loadEvidenceKey } from '../../src/evidence/keys.js';
import { keyIdOf, PublicKeyInfo } from '@rights-preflight/wire/evidence/public-key.js';
import { nobleByteSigner } from '@rights-preflight/wire/evidence/sign-noble.js';
import { verifyEnvelope } from '@rights-preflight/wire/evidence/verify.js';
import { envelopeSigner } from '@rights-preflight/wire/evidence/envelope.js';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'evidence-key-'));
const SEED_HEX = '0f'.repeat(32);

test('key id = first 16 hex of sha256 over the raw public key bytes (not their hex text)', (t) => {
  const key = evidenceKeyFromSeed(Buffer.from(SEED_HEX, 'hex'));
  const expected = createHash('sha256').update(Buffer.from(key.publicKeyHex, 'hex')).digest('hex').slice(0, 16);
  t.is(key.keyId, expected);
  t.is(keyIdOf(key.publicKeyHex), expected);
  t.not(key.keyId, createHash('sha256').update(key.publicKeyHex).digest('hex').slice(0, 16));
  t.deepEqual(key.info, { key_id: expected, algorithm: 'Ed25519', public_key: key.publicKeyHex });
  t.true(isRight(PublicKeyInfo.decode(key.info)));
});

test('EVIDENCE_KEY (seed hex) wins over the data directory and writes nothing', async (t) => {
  const dir = await tmp();
  const key = await loadEvidenceKey(SEED_HEX, dir);
  t.is(key.publicKeyHex, bytesToHex(nobleByteSigner(Buffer.from(SEED_HEX, 'hex')).publicKey));
  t.deepEqual(await readdir(dir), []);
  await t.throwsAsync(() => loadEvidenceKey('abc', dir), { message: /EVIDENCE_KEY must be 64 hex/ });
});

test('first start creates <dataDir>/evidence-key.json with mode 0600; later starts load the same key', async (t) => {
  const dir = path.join(await tmp(), 'nested', 'data');
  const first = await loadEvidenceKey(undefined, dir);
  const file = path.join(dir, EVIDENCE_KEY_FILE);
  t.is((await stat(file)).mode & 0o777, 0o600);
  const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  t.is(json.key_id, first.keyId);
  t.is(json.public_key, first.publicKeyHex);
  const second = await loadEvidenceKey(undefined, dir);
  t.is(second.publicKeyHex, first.publicKeyHex);
  const env = envelopeSigner(first).sign({ n: 1 });
  t.deepEqual(envelopeSigner(second).sign({ n: 1 }), env);
  t.true(verifyEnvelope(env, first.publicKeyHex));
  t.deepEqual((await readdir(dir)).sort(), [EVIDENCE_KEY_FILE]); // no temp file left behind
});

test('concurrent first starts end with one key', async (t) => {
  const dir = await tmp();
  const keys = await Promise.all(Array.from({ length: 8 }, () => loadEvidenceKey(undefined, dir)));
  t.is(new Set(keys.map((k) => k.publicKeyHex)).size, 1);
});

test('without generation a missing key is a start-up error', async (t) => {
  await t.throwsAsync(
    () => loadEvidenceKey(undefined, path.join(os.tmpdir(), 'no-such-dir-' + process.pid), { generate: false }),
    { message: /no evidence key/ },
  );
});

test('a key file whose public key does not match its seed is refused, not used', async (t) => {
  const dir = await tmp();
  await loadEvidenceKey(undefined, dir);
  const file = path.join(dir, EVIDENCE_KEY_FILE);
  const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...json, seed: '11'.repeat(32) }));
  await t.throwsAsync(() => loadEvidenceKey(undefined, dir), { message: /do not match the seed/ });
});

test('the legacy evidence-key.hex of existing development data is still honoured', async (t) => {
  const dir = await tmp();
  await writeFile(path.join(dir, 'evidence-key.hex'), SEED_HEX + '\n', { mode: 0o600 });
  const key = await loadEvidenceKey(undefined, dir);
  t.is(key.publicKeyHex, evidenceKeyFromSeed(Buffer.from(SEED_HEX, 'hex')).publicKeyHex);
});

test('an EvidenceKey never shows its seed when logged or serialized', (t) => {
  const key = evidenceKeyFromSeed(Buffer.from(SEED_HEX, 'hex'));
  t.false(JSON.stringify(key).includes(SEED_HEX));
  t.false(inspect(key, { depth: 10, showHidden: true }).includes(SEED_HEX));
  t.false(inspect(key, { depth: 10, showHidden: true }).includes('0f, 0f, 0f'));
});
