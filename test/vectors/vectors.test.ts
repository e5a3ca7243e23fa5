import test from 'ava';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { vectorFiles } from './generate.js';
import {
  bindingAsVector,
  bindingCheck,
  CHECKS,
  manifestLineValid,
  readVectors,
  tamperedSealStaysShut,
  type Check,
  type Vector,
  VECTORS_DIR,
} from './checks.js';

// The vectors are the service's own output (./generate.ts), kept in the wire package for other languages
// (packages/wire/vectors/README.md). Here: the files are exactly what the code makes today, and every
// vector is sharp — one byte changed anywhere in what it feeds the computation, and the recorded output
// no longer follows.

const dir = VECTORS_DIR;

test('the vector files are byte for byte what the generator makes from the service code today', async (t) => {
  const files = await vectorFiles();
  t.deepEqual(Object.keys(files).sort(), [...Object.keys(CHECKS), 'manifest.json'].sort());
  for (const [name, text] of Object.entries(files)) {
    t.is(await readFile(new URL(name, dir), 'utf8'), text, `${name} is stale: run npx tsx test/vectors/generate.ts`);
  }
});

test('binding.json is byte for byte what its independent generator writes', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--import=tsx',
    new URL('generate-binding.ts', dir).pathname,
  ]);
  t.is(await readFile(new URL('binding.json', dir), 'utf8'), stdout);
});

/** The paths of every string and number leaf of `v`, as property lists. */
function leaves(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof v === 'string') return v.length ? [at] : [];
  if (typeof v === 'number') return [at];
  if (Array.isArray(v)) return v.flatMap((x, i) => leaves(x, [...at, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, [...at, k]));
  return [];
}

/** The leaf's last character changed (to a neighbour of the same kind: one byte when it is ASCII). */
function nudge(x: string | number): string | number {
  if (typeof x === 'number') return Number.isSafeInteger(x) ? x + 1 : x * 2;
  const last = [...x].at(-1)!;
  const next = /[0-9a-fA-F]/.test(last)
    ? ((Number.parseInt(last, 16) + 1) % 16).toString(16)
    : /[a-z]/.test(last)
      ? last === 'z'
        ? 'a'
        : String.fromCharCode(last.charCodeAt(0) + 1)
      : last === 'x'
        ? 'y'
        : 'x';
  return x.slice(0, x.length - last.length) + (/[A-F]/.test(last) ? next.toUpperCase() : next);
}

function mutated(v: Vector, path: (string | number)[]): Vector {
  const copy = structuredClone(v);
  let node = copy.input as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const k = path.at(-1)!;
  node[k] = nudge(node[k] as string | number);
  return copy;
}

/**
 * Leaves a check does not depend on, on purpose: the x402 offer's descriptive fields (resource description and
 * MIME type, the extensions' JSON Schemas, the error text) and the key source, none of which the buyer
 * trusts or the receipt signs; a raised per-report cap that still covers the price; the clock, which only
 * has to be before the offer's expiry (a tampered one is in offer-receipt.json's `tampered`); and the gate's
 * `expected.resource`, whose binding resource is held by `binding.resource` instead.
 */
const OFFER_INERT = [
  String.raw`payment_required\.resource\.(description|mimeType|url)`,
  String.raw`payment_required\.error`,
  String.raw`payment_required\.extensions\.[^.]+\.schema\..*`,
  String.raw`payment_required\.extensions\.service-request-binding\.info\.(key_source|version)`,
  String.raw`expectation\.max_per_report_micro`,
  'now',
];
const INERT: Record<string, RegExp> = {
  'offer-receipt.json': new RegExp(`^(${OFFER_INERT.join('|')})$`),
  'delivery.json': /^expected\.resource$/,
};

async function assertSharp(t: import('ava').ExecutionContext, file: string, check: Check, vectors: Vector[]) {
  let tried = 0;
  for (const v of vectors) {
    t.true(await check(v), `${file} ${v.name} passes unchanged`);
    for (const path of leaves(v.input)) {
      const name = path.join('.');
      if (INERT[file]?.test(name)) continue;
      tried++;
      t.false(await check(mutated(v, path)), `${file} ${v.name}: ${name} changed by one byte still passes`);
    }
  }
  t.true(tried > vectors.length, 'leaves were mutated');
}

for (const [file, check] of Object.entries(CHECKS)) {
  test(`${file}: every vector fails when one byte of any of its inputs changes`, async (t) => {
    const { vectors } = await readVectors<{ vectors: Vector[] }>(file);
    await assertSharp(t, file, check, vectors);
  });
}

test('binding.json: every vector fails when one byte of any of its inputs changes', async (t) => {
  const { vectors } = await readVectors<{ vectors: Record<string, unknown>[] }>('binding.json');
  await assertSharp(t, 'binding.json', bindingCheck, vectors.map(bindingAsVector));
});

test('the tampered offers and deliveries are refused, each as recorded', async (t) => {
  for (const file of ['offer-receipt.json', 'delivery.json']) {
    const { tampered } = await readVectors<{ tampered: Vector[] }>(file);
    t.true(tampered.length >= 7);
    for (const v of tampered) {
      t.true(await CHECKS[file]!(v), `${file} ${v.name}: outcome as recorded`);
      t.true(v.output.outcome !== 'ok' && v.output.ok !== true, `${file} ${v.name} is refused`);
    }
  }
});

test('tampered sealed boxes never open, with the buyer or the service', async (t) => {
  const { tampered } = await readVectors<{ tampered: Vector[] }>('checkpoint-seal.json');
  t.true(tampered.length >= 12);
  for (const v of tampered) t.true(await tamperedSealStaysShut(v), v.name);
});

test('manifest lines: the valid ones decode, each one-byte edit of one is refused', async (t) => {
  const m = await readVectors<{ valid: { text: string }[]; invalid: { name: string; text: string }[] }>(
    'manifest.json',
  );
  for (const v of m.valid) t.true(manifestLineValid(v.text));
  for (const v of m.invalid) {
    t.false(manifestLineValid(v.text), v.name);
    const near = m.valid.some((x) => x.text.length === v.text.length);
    t.true(near, `${v.name} is one byte from a valid line`);
  }
});
