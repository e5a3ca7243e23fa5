import test from 'ava';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The buyer package's folder. */
const PACKAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the buyer core bundles for the browser with no node: import', async (t) => {
  const result = await build({
    entryPoints: [path.join(PACKAGE, 'src/index.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  t.deepEqual(result.errors, []);
  const inputs = Object.keys(result.metafile.inputs);
  t.true(inputs.some((i) => i.endsWith('packages/buyer/src/buyer.ts')));
  t.deepEqual(
    inputs.filter((i) => i.startsWith('node:') || i.includes('/node/')),
    [],
  );
  const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
  t.deepEqual(
    imports.filter((p) => p.startsWith('node:')),
    [],
  );
  const code = result.outputFiles[0]!.text;
  t.false(/from\s*["']node:|require\(["']node:/.test(code));
});

test('the check sees a node: import (the test can fail)', async (t) => {
  const err = await t.throwsAsync(
    build({
      stdin: {
        contents: "import { readFile } from 'node:fs/promises'; export { readFile };",
        resolveDir: PACKAGE,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    }),
  );
  t.regex(String(err?.message), /node:fs\/promises/);
});
