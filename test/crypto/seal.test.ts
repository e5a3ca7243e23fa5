import test from 'ava';
import { mkdtemp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isRight } from 'fp-ts/lib/Either.js';
import {
  checkpointAad,
  open,
  openText,
  SealedBox,
  SealOpenFailed,
  sealText,
} from '@rights-preflight/wire/crypto/aes-gcm.js';
import { fromBase64url, toBase64url } from '@rights-preflight/wire/crypto/base64url.js';
import { sealedBoxOfCompact } from '../../src/crypto/seal.js';
import { checkpointSealer } from '../../src/crypto/checkpoint-seal.js';
import { openNode, sealNode } from '../../src/crypto/aes-gcm-node.js';
import { openCompact, sealCompact } from '../support/legacy-seal.js';
import { loadCheckpointKey } from '../../src/crypto/checkpoint-key.js';

// The service's sealers (node:crypto, the checkpoint sealer, the legacy compact form) and its checkpoint key,
// held to the wire's WebCrypto seal (whose own tests are packages/wire/test/aes-gcm.test.ts).

const key = new Uint8Array(32).map((_, i) => i + 1);
const otherKey = new Uint8Array(32).fill(9);
const authorization = JSON.stringify({
  x402Version: 2,
  payload: { signature: '0x' + 'ab'.repeat(65), authorization: { nonce: '0x6163717075627631' + '00'.repeat(24) } },
});
const aad = new TextEncoder().encode(checkpointAad('a'.repeat(64)));

test("a legacy compact value (the money path's sync seal) converts and opens with WebCrypto", async (t) => {
  const compact = sealCompact(key, authorization);
  t.is(openCompact(key, compact), authorization);
  t.is(await openText(key, sealedBoxOfCompact(compact), 'payment-checkpoint-v1'), authorization);
  t.throws(() => openCompact(otherKey, compact));
});

test('loadCheckpointKey: CHECKPOINT_KEY wins; else a 0600 file in the data dir, stable across loads', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'checkpoint-key-'));
  t.deepEqual(await loadCheckpointKey({ checkpointKeyHex: '01'.repeat(32), dataDir: dir }), new Uint8Array(32).fill(1));
  const a = await loadCheckpointKey({ checkpointKeyHex: undefined, dataDir: dir });
  t.is(a.length, 32);
  t.is((await stat(path.join(dir, 'checkpoint-key.hex'))).mode & 0o777, 0o600);
  t.deepEqual(await loadCheckpointKey({ checkpointKeyHex: undefined, dataDir: dir }), a);
  await t.throwsAsync(() => loadCheckpointKey({ checkpointKeyHex: 'zz', dataDir: dir }), { message: /CHECKPOINT_KEY/ });
});

test('checkpointSealer: seals per purchase (opens for no other) and still opens the legacy compact form', async (t) => {
  const sealer = checkpointSealer(key);
  const id = 'a'.repeat(64);
  const box = await sealer.seal(authorization, id);
  t.true(isRight(SealedBox.decode(box)));
  t.is(await sealer.unseal(box, id), authorization);
  t.is(await openText(key, box, checkpointAad(id)), authorization);
  await t.throwsAsync(() => sealer.unseal(box, 'b'.repeat(64)), { instanceOf: SealOpenFailed });
  await t.throwsAsync(() => checkpointSealer(otherKey).unseal(box, id), { instanceOf: SealOpenFailed });
  const legacy = sealCompact(key, authorization);
  t.is(await sealer.unseal(legacy, id), authorization);
  t.is(await sealer.unseal(legacy, 'b'.repeat(64)), authorization, 'the legacy form has one fixed AAD');
  await t.throwsAsync(() => checkpointSealer(otherKey).unseal(legacy, id), { instanceOf: SealOpenFailed });
});

test("the service's node:crypto sealer and the buyer's WebCrypto one open each other's boxes", async (t) => {
  const id = 'c'.repeat(64);
  const fromWebCrypto = await sealText(key, authorization, checkpointAad(id));
  t.is(await checkpointSealer(key).unseal(fromWebCrypto, id), authorization);
  const plain = new TextEncoder().encode(authorization);
  const fromNode = sealNode(key, plain, aad);
  t.deepEqual(await open(key, fromNode, aad), plain);
  t.deepEqual(openNode(key, fromNode, aad), plain);
  t.not(sealNode(key, plain, aad).iv, fromNode.iv, 'a fresh IV per seal');
});

test('openNode: wrong key, wrong aad, altered tag, iv or length all fail with SealOpenFailed', (t) => {
  const box = sealNode(key, new TextEncoder().encode(authorization), aad);
  t.throws(() => openNode(otherKey, box, aad), { instanceOf: SealOpenFailed });
  t.throws(() => openNode(key, box, new Uint8Array(0)), { instanceOf: SealOpenFailed });
  const ct = fromBase64url(box.ciphertext);
  ct[ct.length - 1] = ct[ct.length - 1]! ^ 0x01;
  t.throws(() => openNode(key, { ...box, ciphertext: toBase64url(ct) }, aad), { instanceOf: SealOpenFailed });
  const iv = fromBase64url(box.iv);
  iv[3] = iv[3]! ^ 0x01;
  t.throws(() => openNode(key, { ...box, iv: toBase64url(iv) }, aad), { instanceOf: SealOpenFailed });
  t.throws(() => openNode(key, { ...box, ciphertext: box.ciphertext.slice(0, 10) }, aad), {
    instanceOf: SealOpenFailed,
  });
  t.throws(() => sealNode(new Uint8Array(16), new Uint8Array(1), aad), { instanceOf: RangeError });
});
