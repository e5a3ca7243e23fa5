import type { parseArgs } from 'node:util';
import { COMMAND_HELP } from './cli-help.js';

// What every `rights-preflight` command is given: the parsed command line, the environment (with
// --env-file applied), the two output streams, and the one way to fail (./cli.ts parses; the commands
// are ./cli-commands.ts).

export const CLI_OPTIONS = {
  service: { type: 'string' },
  purpose: { type: 'string' },
  tier: { type: 'string' },
  out: { type: 'string' },
  network: { type: 'string' },
  asset: { type: 'string' },
  recipient: { type: 'string' },
  key: { type: 'string' },
  'max-per-report': { type: 'string' },
  'max-per-task': { type: 'string' },
  'checkpoint-dir': { type: 'string' },
  'binding-key': { type: 'string' },
  geo: { type: 'string' },
  preflight: { type: 'boolean' },
  'ignore-other-signals': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  reason: { type: 'string' },
  message: { type: 'string' },
  version: { type: 'boolean' },
  json: { type: 'boolean' },
  'env-file': { type: 'string' },
  budget: { type: 'string' },
  concurrency: { type: 'string' },
  manifest: { type: 'string' },
} as const;

export type CliValues = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof CLI_OPTIONS; allowPositionals: true; strict: true }>
>['values'];

export class UsageError extends Error {}

/** With --json every failure is also one JSON document on stdout: {"error": {code, message}}. */
export type Failure = 'USAGE' | 'REFUSED' | 'FAIL' | 'ERROR';

export interface Cli {
  cmd: string;
  arg: string | undefined;
  more: string[];
  v: CliValues;
  env: NodeJS.ProcessEnv;
  json: boolean;
  out: (s: string) => void;
  err: (s: string) => void;
  /** `help` (a usage error): the command that shows the rest, e.g. `rights-preflight buy --help`. */
  fail: (code: Failure, message: string, exit: number, help?: string) => number;
}

/** Where a usage error points: the command's page, or the overview. */
export const helpOf = (cmd: string | undefined) =>
  cmd !== undefined && Object.hasOwn(COMMAND_HELP, cmd) ? `rights-preflight ${cmd} --help` : 'rights-preflight --help';

export function failure(json: boolean, out: (s: string) => void, err: (s: string) => void): Cli['fail'] {
  return (code, message, exit, help) => {
    const prefix = code === 'USAGE' ? '' : code === 'FAIL' ? 'FAIL: ' : `${code} `;
    // A usage error is the one line that matters and where the rest is, never the whole page again.
    err(help ? `${message} (see ${help})` : `${prefix}${message}`);
    if (json) out(JSON.stringify({ error: { code, message } }, null, 2));
    return exit;
  };
}

/** A required value, or a usage error naming where it comes from. */
export const need = (name: string, value: string | undefined): string => {
  if (!value) throw new UsageError(`missing ${name}`);
  return value;
};
