import test from 'ava';
import {
  bindingAsVector,
  bindingCheck,
  CHECKS,
  manifestLineValid,
  readVectors,
  type Vector,
} from '../vectors/checks.js';

// The buyer reads the shared test vectors (packages/wire/vectors/README.md) as any other language's buyer does:
// from the bound nonce to the delivered report, it must compute every recorded output from its input.

for (const [file, check] of Object.entries(CHECKS)) {
  test(`the buyer reproduces ${file}`, async (t) => {
    const { vectors } = await readVectors<{ vectors: Vector[] }>(file);
    t.true(vectors.length >= 2);
    for (const v of vectors) t.true(await check(v), v.name);
  });
}

test('the buyer reproduces binding.json', async (t) => {
  const { vectors } = await readVectors<{ vectors: Record<string, unknown>[] }>('binding.json');
  for (const v of vectors.map(bindingAsVector)) t.true(await bindingCheck(v), v.name);
});

test("the buyer's manifest codec reads every valid manifest line of the vectors", async (t) => {
  const { valid } = await readVectors<{ valid: { name: string; text: string }[] }>('manifest.json');
  t.true(valid.length >= 4);
  for (const v of valid) t.true(manifestLineValid(v.text), v.name);
});
