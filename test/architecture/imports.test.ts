import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// No HTTP in the domain: nothing under the domain folders imports from src/http (the one place that
// picks statuses and builds x402 answers). Every relative import is resolved, so a path that reaches
// src/http through ../.. is caught too.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOMAIN = ['src/purchase', 'src/gate', 'src/refund', 'src/pricing', 'src/contract', 'streams', 'projections'];
const HTTP = path.join(root, 'src/http');

async function tsFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await tsFiles(p)));
    else if (entry.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

test('nothing in the domain imports from src/http', async (t) => {
  const offenders: string[] = [];
  let scanned = 0;
  for (const dir of DOMAIN) {
    for (const file of await tsFiles(path.join(root, dir))) {
      scanned++;
      const source = await readFile(file, 'utf8');
      for (const m of source.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2]!;
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        if (target === HTTP || target.startsWith(HTTP + path.sep))
          offenders.push(`${path.relative(root, file)} → ${spec}`);
      }
    }
  }
  t.true(scanned > 50, `scanned ${scanned} files`);
  t.deepEqual(offenders, []);
});

test('the scan sees an import of src/http when there is one', (t) => {
  // Built at run time: as a literal it would read, from this file's folder, as a path that does not exist.
  const target = ['..', 'http', 'status-of.js'].join('/');
  const sample = `import { STATUS_OF } from '${target}';\n`;
  const spec = [...sample.matchAll(IMPORT)][0]?.[1];
  t.is(spec, target);
  t.true(path.resolve(path.join(root, 'src/purchase'), spec!).startsWith(HTTP));
});
