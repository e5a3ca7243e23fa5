import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { checkpointAad, open, openText, seal, SealedBox, SealOpenFailed, sealText } from '../src/crypto/aes-gcm.js';
import { fromBase64url, toBase64url } from '../src/crypto/base64url.js';

// The wire's AES-256-GCM seal (WebCrypto, what the buyer seals its checkpoints with) and base64url. The
// service's node:crypto sealer and the checkpoint key are held to it in test/crypto/seal.test.ts.

const key = new Uint8Array(32).map((_, i) => i + 1);
const otherKey = new Uint8Array(32).fill(9);
/** What a buyer seals: a payment's signature, say. */
const secret = JSON.stringify({ signature: `0x${'ab'.repeat(65)}` });
const aad = new TextEncoder().encode(checkpointAad('a'.repeat(64)));

test('round trip; the sealed form is the codec shape and holds no plaintext', async (t) => {
  const plain = new TextEncoder().encode(secret);
  const box = await seal(key, plain, aad);
  t.true(isRight(SealedBox.decode(box)));
  t.is(box.alg, 'A256GCM');
  t.is(fromBase64url(box.iv).length, 12);
  t.is(fromBase64url(box.ciphertext).length, plain.length + 16); // ciphertext ‖ 128-bit tag
  t.false(JSON.stringify(box).includes('ab'.repeat(8)));
  t.deepEqual(await open(key, box, aad), plain);
});

test('every seal uses a fresh IV', async (t) => {
  const a = await sealText(key, 'same');
  const b = await sealText(key, 'same');
  t.not(a.iv, b.iv);
  t.not(a.ciphertext, b.ciphertext);
  t.is(await openText(key, a), 'same');
});

test('wrong key, wrong or missing aad, altered ciphertext/tag/iv all fail with SealOpenFailed', async (t) => {
  const box = await seal(key, new TextEncoder().encode(secret), aad);
  await t.throwsAsync(() => open(otherKey, box, aad), { instanceOf: SealOpenFailed });
  await t.throwsAsync(() => open(key, box, new TextEncoder().encode(checkpointAad('b'.repeat(64)))), {
    instanceOf: SealOpenFailed,
  });
  await t.throwsAsync(() => open(key, box), { instanceOf: SealOpenFailed });
  const ct = fromBase64url(box.ciphertext);
  for (const index of [0, ct.length - 1]) {
    // first ciphertext byte, last tag byte
    const tampered = Uint8Array.from(ct);
    tampered[index] = tampered[index]! ^ 0x01;
    await t.throwsAsync(() => open(key, { ...box, ciphertext: toBase64url(tampered) }, aad), {
      instanceOf: SealOpenFailed,
    });
  }
  const iv = fromBase64url(box.iv);
  iv[0] = iv[0]! ^ 0x80;
  await t.throwsAsync(() => open(key, { ...box, iv: toBase64url(iv) }, aad), { instanceOf: SealOpenFailed });
  await t.throwsAsync(() => open(key, { ...box, ciphertext: box.ciphertext.slice(0, 10) }, aad), {
    instanceOf: SealOpenFailed,
  });
});

test('keys must be 32 bytes', async (t) => {
  await t.throwsAsync(() => seal(new Uint8Array(16), new Uint8Array(1)), { instanceOf: RangeError });
});

test('base64url round trip over every byte value and odd lengths', (t) => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (const n of [0, 1, 2, 3, 255, 256])
    t.deepEqual(fromBase64url(toBase64url(all.subarray(0, n))), all.subarray(0, n));
  t.false(toBase64url(all).includes('='));
  t.throws(() => fromBase64url('a+b/'));
});
