import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The README's Layout section names every top-level folder and every folder of src/ (docs/decisions.md, "Reviewable
// modules and dead code"), so a folder added without a word about it fails here.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Made by tools, never committed (.gitignore). */
const GENERATED = new Set(['node_modules', 'build', 'dist', 'data', 'coverage']);

async function folders(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && !GENERATED.has(e.name) && (e.name === '.ci' || !e.name.startsWith('.')))
    .map((e) => e.name);
}

async function layoutSection(): Promise<string> {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Layout\n');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test('the README Layout names every top-level folder and every folder of src/', async (t) => {
  const layout = await layoutSection();
  t.true(layout.length > 500, 'the Layout section is there');
  const top = await folders('.');
  const src = await folders('src');
  t.true(top.includes('src') && src.includes('http'), 'the folders were listed');
  t.deepEqual(
    top.filter((f) => !layout.includes(`\`${f}/\``)),
    [],
  );
  t.deepEqual(
    src.filter((f) => !layout.includes(`\`${f}/\``) && !layout.includes(`src/${f}`)),
    [],
  );
});
