#!/usr/bin/env node
// `npm start` runs the service as JavaScript compiled ahead of time into build/, not under tsx: a
// running tsx registers a module loader with a thread and isolate of its own, in the service and in
// every inspect worker, which cost the process ~110 MB of resident memory (docs/decisions.md, "Hot
// paths"). esbuild is the transform tsx itself applies, so build/ runs the same code the tests run;
// type checking stays with `npm run typecheck` and the lint.
//
// Each file is written only when its content changed, through a temporary file and a rename, so two
// `npm start`s at once (tests do that) never see a half-written module, and a start with nothing
// changed writes nothing.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ASSETS, BUILT_AT, SOURCES } from './build-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'build');
// The workspace packages the service imports by name (@rights-preflight/wire/…, and the buyer in ops/demo)
// are compiled here beside the rest, and their names turned into paths within build/ (as the root
// tsconfig's paths do for tsc and tsx), so build/ stands alone and never reads a package's dist/, which
// the package's own build deletes and rewrites.
const PACKAGE_NAME = /(["'])@rights-preflight\/(wire\/[^"']+|buyer(?:\/node)?)\1/g;
/** The compiled file a package name stands for, from its subpath (`wire/contract/quote.js`, `buyer`). */
const compiledOf = (subpath) =>
  subpath.startsWith('wire/')
    ? path.join(OUT, 'packages/wire/src', subpath.slice('wire/'.length))
    : path.join(OUT, 'packages/buyer/src', subpath.slice('buyer'.length), 'index.js');
const STARTED = new Date();

async function typescriptFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await typescriptFiles(full)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

async function writeIfChanged(file, contents) {
  const before = await readFile(file).catch(() => undefined);
  if (before && Buffer.compare(before, Buffer.from(contents)) === 0) return false;
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
  return true;
}

const entryPoints = (await Promise.all(SOURCES.map((s) => typescriptFiles(path.join(ROOT, s))))).flat();
const result = await build({
  entryPoints,
  outdir: OUT,
  outbase: ROOT,
  bundle: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: path.join(ROOT, 'tsconfig.json'),
  write: false,
  logLevel: 'warning',
});
/** The compiled module with each import of a workspace package made a relative path to its compiled file. */
function withPackagePaths(file) {
  const text = file.text;
  if (!text.includes('@rights-preflight/')) return file.contents;
  return text.replace(PACKAGE_NAME, (_, quote, subpath) => {
    const target = path.relative(path.dirname(file.path), compiledOf(subpath)).split(path.sep).join('/');
    return `${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
  });
}

let written = 0;
for (const file of result.outputFiles) if (await writeIfChanged(file.path, withPackagePaths(file))) written++;
for (const asset of ASSETS) {
  const contents = await readFile(path.join(ROOT, asset));
  if (await writeIfChanged(path.join(OUT, asset), contents)) written++;
}
if (written > 0) process.stderr.write(`build: ${written} of ${result.outputFiles.length} files written to build/\n`);
// Stamped with the start, so a source edited while this ran is still newer than the build.
await writeFile(path.join(ROOT, BUILT_AT), '');
await utimes(path.join(ROOT, BUILT_AT), STARTED, STARTED);
