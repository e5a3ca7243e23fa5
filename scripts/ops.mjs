#!/usr/bin/env node
// `npm run ops`: the operator CLI as JavaScript compiled into build/ (scripts/build.mjs), not under a
// TypeScript loader, which took 5-11 s before the first line (docs/decisions.md, "Operator commands
// start from built code"). The build runs only when a source is newer than the last build: a file or
// folder changed (adding, removing or renaming a file changes its folder) after build/.built-at.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUILT_AT, SOURCES } from './build-sources.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function newerThan(dir, since) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const checks = entries.map(async (entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return newerThan(full, since);
    return (await stat(full)).mtimeMs > since;
  });
  return (await stat(dir)).mtimeMs > since || (await Promise.all(checks)).some(Boolean);
}

async function stale() {
  const built = await stat(path.join(ROOT, BUILT_AT)).catch(() => undefined);
  if (!built) return true;
  const changed = await Promise.all(SOURCES.map((s) => newerThan(path.join(ROOT, s), built.mtimeMs)));
  return changed.some(Boolean);
}

if (await stale()) await import('./build.mjs');
const { runCli } = await import(pathToFileURL(path.join(ROOT, 'build/ops/cli.js')).href);
process.exitCode = await runCli(process.argv.slice(2));
