#!/usr/bin/env node
// Launcher: runs the TypeScript CLI (packages/buyer/src/cli.ts) through tsx, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../packages/buyer/src/cli.ts');
process.exitCode = await main(
  process.argv.slice(2),
  process.env,
  (s) => process.stdout.write(`${s}\n`),
  (s) => process.stderr.write(`${s}\n`),
);
