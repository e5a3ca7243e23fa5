import test from 'ava';
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';
import { boundNonce, inputSha256, looksBound, NONCE_PREFIX } from '../src/payment/binding.js';

// The published vectors (generated independently with node:crypto + canonicalize) must be reproduced
// exactly by the implementation the service and the buyer client share.

interface Vector {
  name: string;
  resource: string;
  key: string;
  normalized_input: unknown;
  input_sha256: string;
  nonce: string;
}
const vectors = JSON.parse(await readFile(new URL('../vectors/binding.json', import.meta.url), 'utf8')) as {
  prefix: string;
  vectors: Vector[];
};

test("the published prefix is the implementation's", (t) => {
  t.is(vectors.prefix, NONCE_PREFIX);
  t.true(vectors.vectors.length >= 5);
});

for (const v of vectors.vectors) {
  test(`vector: ${v.name}`, (t) => {
    t.is(inputSha256(v.normalized_input), v.input_sha256);
    const nonce = boundNonce({ resource: v.resource, key: v.key, input_sha256: v.input_sha256 });
    t.is(nonce as string, v.nonce);
    t.regex(nonce, /^0x6163717075627631[0-9a-f]{48}$/);
    t.true(looksBound(nonce));
  });
}

test('every vector has a different nonce (each binding field changes it)', (t) => {
  t.is(new Set(vectors.vectors.map((v) => v.nonce)).size, vectors.vectors.length);
});

test('key order of the normalized input does not change its digest; a value does', (t) => {
  const a = inputSha256({ b: 1, a: 'x' });
  t.is(inputSha256({ a: 'x', b: 1 }), a);
  t.not(inputSha256({ a: 'x', b: 2 }), a);
});

test('a random 32-byte nonce does not look bound', (t) => {
  t.false(looksBound(`0x${'ab'.repeat(32)}`));
  t.false(looksBound(`${NONCE_PREFIX}zz${'0'.repeat(46)}`));
});

test('binding.ts bundles for the browser (no node: built-ins)', async (t) => {
  const out = await build({
    entryPoints: [new URL('../src/payment/binding.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  t.is(out.errors.length, 0);
  t.false(/node:|require\(["']crypto/.test(out.outputFiles[0]!.text));
});
