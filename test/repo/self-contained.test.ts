import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A clone of this repository alone must work: no tracked file may point at a path outside it
// (a sibling checkout's `shared` folder, an absolute path of a developer's machine).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RELATIVE = /(?:^|[\s'"`(=:])((?:\.\.\/)+[A-Za-z0-9_@.-][^\s'"`)]*)/g;
const ABSOLUTE = /(?:^|[\s'"`(=:])(\/(?:work|home|Users)\/[^\s'"`)]+)/g;

/** Whether git ignores `target` (a build output such as a package's dist/, made by the build, not a clone). */
function ignoredBuildOutput(target: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', path.relative(ROOT, target)], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
}

/** Every path in `text` (a tracked file at `file`) that leaves the repository. */
export function outsidePaths(file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(RELATIVE)) {
    const target = path.resolve(path.dirname(path.join(ROOT, file)), m[1]!);
    const outside = target !== ROOT && !target.startsWith(ROOT + path.sep);
    // Outside the repository, or inside it under a folder that does not exist (`src/payment` naming
    // a sibling `shared` folder lands in `src/shared`, which only a sibling checkout would have meant),
    // unless that folder is a build output git ignores.
    if (outside || (!existsSync(path.dirname(target)) && !ignoredBuildOutput(target))) found.push(m[1]!);
  }
  for (const m of text.matchAll(ABSOLUTE)) found.push(m[1]!);
  return found;
}

test('no tracked file refers to a path outside the repository', (t) => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  t.true(files.length > 100);
  const offenders: string[] = [];
  for (const file of files) {
    if (file === 'package-lock.json') continue; // npm's own resolved paths are inside node_modules
    const bytes = readFileSync(path.join(ROOT, file));
    if (bytes.includes(0)) continue; // binary
    for (const p of outsidePaths(file, bytes.toString('utf8'))) offenders.push(`${file}: ${p}`);
  }
  t.deepEqual(offenders, []);
});

test('the check finds a sibling folder and an absolute machine path (it can fail)', (t) => {
  // Built at run time, so this file does not trip the test above.
  const up = (n: number, rest: string) => `${'../'.repeat(n)}${rest}`;
  t.deepEqual(outsidePaths('test/rsl/fixtures.test.ts', `const DIR = '${up(3, 'shared/fixtures/rsl')}';`), [
    up(3, 'shared/fixtures/rsl'),
  ]);
  t.deepEqual(outsidePaths('README.md', `see ${up(1, 'shared/spec')}`), [up(1, 'shared/spec')]);
  const nested = up(2, 'shared/reference/x402.md');
  t.deepEqual(
    outsidePaths('packages/wire/src/payment/x402-wire.ts', `// see ${nested}`),
    [nested],
    'inside the tree, but no such folder',
  );
  t.deepEqual(outsidePaths('src/http/a.ts', `import x from '${up(1, 'evidence/keys.js')}';`), []);
  const machine = ['', 'work', 'shared', 'fixtures'].join('/');
  t.deepEqual(outsidePaths('docs/x.md', `fixtures live in ${machine}`), [machine]);
});
