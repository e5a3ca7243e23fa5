import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The lint rule is "lines ≤ 120 characters". Biome's formatter (lineWidth 120 in biome.json) breaks
// code, but never a long string or comment, so this test holds the rest: every tracked source and
// JSON file, counted in characters (code points), not bytes.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX = 120;
const CHECKED = /\.(?:ts|mjs|js|json)$/;
// Generated test vectors (packages/wire/vectors/, made by test/vectors/generate.ts and generate-binding.ts):
// their values are JCS strings and headers that are hashed byte for byte, and JSON has no way to continue
// a string on the next line.
const EXEMPT = /^packages\/wire\/vectors\/[^/]+\.json$/;

/** `file:line (n characters)` for every line of `text` longer than `max` characters. */
export function longLines(file: string, text: string, max = MAX): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const length = [...line].length;
    if (length > max) found.push(`${file}:${i + 1} (${length} characters)`);
  }
  return found;
}

test(`no tracked .ts/.mjs/.js/.json file has a line longer than ${MAX} characters`, (t) => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => CHECKED.test(f) && !f.split('/').includes('node_modules') && !EXEMPT.test(f));
  t.true(files.length > 100);
  const offenders: string[] = [];
  for (const file of files) offenders.push(...longLines(file, readFileSync(path.join(ROOT, file), 'utf8')));
  t.deepEqual(offenders, [], `${offenders.length} line(s) over ${MAX} characters:\n${offenders.join('\n')}`);
});

test('the check counts characters, not bytes, and names file and line (it can fail)', (t) => {
  const ok = '€'.repeat(MAX); // 360 bytes, 120 characters
  t.deepEqual(longLines('a.ts', `${ok}\r\n${ok}\n`), []);
  t.deepEqual(longLines('b.ts', `short\n${'x'.repeat(MAX + 1)}\nshort`), ['b.ts:2 (121 characters)']);
});
