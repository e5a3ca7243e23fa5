#!/usr/bin/env node
// The buyer CLI (src/cli.ts). Installed from the package, it runs the compiled dist/cli.js. In the
// repository, where src/ is beside it and tsx is installed, it runs the TypeScript source through tsx, so
// `npx rights-preflight` there never runs a stale build (docs/decisions.md, "The buyer as its own package"),
// with the repository's tsconfig, whatever the working directory: its paths lead @rights-preflight/wire to
// the wire's sources too.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../src/cli.ts', import.meta.url);
let main;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) });
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli.js'));
}
process.exitCode = await main(
  process.argv.slice(2),
  process.env,
  (s) => process.stdout.write(`${s}\n`),
  (s) => process.stderr.write(`${s}\n`),
);
