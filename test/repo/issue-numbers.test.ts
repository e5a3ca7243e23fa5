import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Code and its comments say the reason, or cite the repository (docs/decisions.md by heading, docs/wire.md
// by section): an issue number means nothing to a reader of a clone, and a user never saw the tracker.
// Every tracked source file is held, comments and strings alike; docs/decisions.md, a journal ordered by
// the work that made it, may name them.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CODE = /\.(?:ts|mts|mjs|cjs|js|py)$/;
const FOLDERS = ['src', 'streams', 'projections', 'ops', 'packages', 'scripts', 'bench', 'test'];
const ISSUE_NUMBER = /\bissue\s*#?\s*\d+/i;

/** `file:line` for every line of `text` that names an issue by number. */
export function issueNumbers(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

test('no tracked source file names an issue by number', (t) => {
  const files = execFileSync('git', ['ls-files', '-z', '--', ...FOLDERS], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => CODE.test(f) && !f.split('/').includes('node_modules'));
  t.true(files.length > 300, `${files.length} files`);
  const offenders = files.flatMap((f) => issueNumbers(f, readFileSync(path.join(ROOT, f), 'utf8')));
  t.deepEqual(offenders, [], `say the reason, or cite docs/decisions.md by heading:\n${offenders.join('\n')}`);
});

test('the check finds an issue number in a comment, a docblock and a string (it can fail)', (t) => {
  // Built at run time, so this file does not trip the test above.
  const n = (k: number) => `${'iss'}ue ${k}`;
  const source = [
    'const a = 1;',
    `// Revalidation (${n(26)}): fetched conditionally.`,
    `/** Since ${n(28).replace(' ', ' #')}. */`,
    `    lines.append(f"not recorded (report before ${n(28).toUpperCase()})")`,
    '// docs/decisions.md, "Revalidation": the tissue 26 of a sentence is not a number of the tracker',
  ].join('\n');
  t.deepEqual(
    issueNumbers('x.ts', source).map((l) => l.split(':')[1]),
    ['2', '3', '4'],
  );
});
