import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bytes32, Sha256Hex } from '@rights-preflight/wire/contract/primitives.js';

// One primitive per check: a checked string the wire defines (64 lowercase hex of a digest, a purchase id
// or a claim token; a 0x bytes32) is tested through its codec in the wire package
// (packages/wire/src/contract/primitives.ts: `Sha256Hex.is`, `PurchaseId.is`, `.pattern.source` for a
// schema), never by a regular expression written again beside it. (A transaction hash goes through
// `TxHash.is` too, but its expression is also the shape of a private key, which the buyer checks in
// account.ts, so it is not held here.)

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PRODUCTION = ['src', 'streams', 'projections', 'packages/wire/src', 'packages/buyer/src'];
const HOME = 'packages/wire/src/contract/primitives.ts';

/** The checks held here, as their regular expressions' source text, which a copy would repeat. */
const CHECKS = [Sha256Hex, Bytes32].map((c) => ({ name: c.name, source: c.pattern.source }));

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(rel)));
    else if (entry.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** `file: name` for each check whose expression `text` spells out again (as a literal or a string). */
export function copiesOf(file: string, text: string): string[] {
  return CHECKS.filter((c) => text.includes(c.source)).map((c) => `${file}: ${c.name}`);
}

test('the wire primitives are each written once, in primitives.ts', async (t) => {
  const copies: string[] = [];
  let scanned = 0;
  for (const dir of PRODUCTION) {
    for (const file of await tsFiles(dir)) {
      scanned++;
      if (file !== HOME) copies.push(...copiesOf(file, await readFile(path.join(root, file), 'utf8')));
    }
  }
  t.true(scanned > 300, `scanned ${scanned} files`);
  t.deepEqual(copies, []);
  t.deepEqual(copiesOf(HOME, await readFile(path.join(root, HOME), 'utf8')).length, CHECKS.length);
});

test('a check written again is seen, as a literal or as a schema string', (t) => {
  t.deepEqual(copiesOf('src/x.ts', 'const ID = /^[0-9a-f]{64}$/;\n'), ['src/x.ts: Sha256Hex']);
  t.deepEqual(copiesOf('src/x.ts', "schema: { type: 'string', pattern: '^[0-9a-f]{64}$' }\n"), ['src/x.ts: Sha256Hex']);
  t.deepEqual(copiesOf('src/x.ts', 'if (/^0x[0-9a-f]{64}$/.test(nonce)) return nonce;\n'), ['src/x.ts: Bytes32']);
  t.deepEqual(copiesOf('src/x.ts', 'Sha256Hex.is(id) && Bytes32.is(nonce)\n'), []);
});
