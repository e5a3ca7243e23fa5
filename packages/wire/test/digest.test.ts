import test from 'ava';
import { createHash } from 'node:crypto';
import { build } from 'esbuild';
import { digestOf, portableSha256Hex, sha256Hex } from '../src/evidence/digest.js';

test('sha256Hex: FIPS 180-2 "abc" and the empty string', (t) => {
  t.is(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  t.is(sha256Hex(new Uint8Array(0)), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
});

test('sha256Hex hashes strings as UTF-8 (same as node:crypto)', (t) => {
  const s = 'Grüße € 😀';
  t.is(sha256Hex(s), createHash('sha256').update(s, 'utf8').digest('hex'));
  t.is(sha256Hex(new TextEncoder().encode(s)), sha256Hex(s));
});

test('digestOf = sha256hex(JCS(value)): key order does not matter, values do', (t) => {
  t.is(digestOf({ b: 1, a: [true, null] }), sha256Hex('{"a":[true,null],"b":1}'));
  t.is(digestOf({ a: [true, null], b: 1 }), digestOf({ b: 1, a: [true, null] }));
  t.not(digestOf({ a: [true, null], b: 2 }), digestOf({ b: 1, a: [true, null] }));
});

test('the browser-safe evidence surface bundles for the browser (no node: built-ins)', async (t) => {
  const out = await build({
    entryPoints: [
      new URL('../src/evidence/index.ts', import.meta.url).pathname,
      new URL('../src/crypto/aes-gcm.ts', import.meta.url).pathname,
    ],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    outdir: '/nonexistent',
  });
  t.is(out.errors.length, 0);
  t.is(out.outputFiles.length, 2);
  for (const f of out.outputFiles) t.false(/node:|require\(["'](crypto|fs)/.test(f.text), f.path);
});

test("the runtime's native sha256 and the portable one give the same digest, strings as UTF-8", (t) => {
  const lone = `a${String.fromCharCode(0xd800)}b`; // a lone surrogate: both encode it as U+FFFD
  const inputs: Array<string | Uint8Array> = ['', 'abc', 'Grüße € 😀', lone, 'x'.repeat(100_000)];
  inputs.push(
    new Uint8Array(0),
    Uint8Array.from({ length: 1000 }, (_, i) => (i * 31) & 0xff),
  );
  for (const input of inputs) t.is(sha256Hex(input), portableSha256Hex(input));
  t.is(sha256Hex(lone), sha256Hex(new TextEncoder().encode(lone)));
});
