import { parseArgs, parseEnv } from 'node:util';
import { readFile } from 'node:fs/promises';
import { isRight } from 'fp-ts/lib/Either.js';
import { BuyerRefused } from './errors.js';
import { GatePurpose, ReportPurpose } from '@rights-preflight/wire/rsl/purposes.js';
import { COMMAND_HELP, REFUND_REASONS, USAGE } from './cli-help.js';
import { CLI_OPTIONS, failure, helpOf, UsageError, type Cli, type CliValues } from './cli-context.js';
import { describeError } from './cli-errors.js';
import { COMMANDS } from './cli-commands.js';

// `rights-preflight` (bin/rights-preflight.mjs of this package): capabilities | quote | buy | gate | check |
// revalidate | verify | refund.
// Secrets come from the environment only (BUYER_PRIVATE_KEY, BUYER_CHECKPOINT_KEY); nothing secret is printed.
// This file reads the command line; the commands are ./cli-commands.ts.

/** Refused here, before any request: a reason, purpose or tier the command cannot take. */
function argumentProblem(cmd: string, v: CliValues): string | undefined {
  if (cmd === 'refund' && v.reason !== undefined && !Object.hasOwn(REFUND_REASONS, v.reason))
    return `invalid --reason ${JSON.stringify(v.reason)}: one of ${Object.keys(REFUND_REASONS).join(', ')}`;
  if (!['quote', 'buy', 'gate', 'revalidate', 'check'].includes(cmd)) return undefined;
  const purposes = cmd === 'gate' || cmd === 'check' ? GatePurpose : ReportPurpose;
  if (v.purpose !== undefined && !isRight(purposes.decode(v.purpose)))
    return `invalid --purpose ${JSON.stringify(v.purpose)}: one of ${Object.keys(purposes.keys).join(', ')}`;
  if (v.tier !== undefined && v.tier !== 'fresh' && v.tier !== 'deep')
    return `invalid --tier ${JSON.stringify(v.tier)}: fresh or deep`;
  return undefined;
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const json = argv.includes('--json');
  const fail = failure(json, out, err);
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    return fail('USAGE', (e as Error).message, 2, helpOf(argv.find((a) => !a.startsWith('-'))));
  }
  const {
    values: v,
    positionals: [cmd, arg, ...more],
  } = parsed;
  // --env-file FILE: KEY=value pins (npm start in development writes DATA_DIR/buyer.env); the environment wins.
  if (v['env-file'] !== undefined) {
    let text: string;
    try {
      text = await readFile(v['env-file'], 'utf8');
    } catch (e) {
      return fail('USAGE', `--env-file ${v['env-file']} cannot be read (${(e as Error).message})`, 2);
    }
    env = { ...parseEnv(text), ...env };
  }
  if (v.version) {
    out(json ? JSON.stringify({ version: await packageVersion() }) : await packageVersion());
    return 0;
  }
  // `<command> --help` and `help <command>`: the command's page; otherwise the overview.
  const page = cmd === 'help' ? arg : cmd;
  if (v.help || cmd === 'help') {
    const text = page !== undefined && Object.hasOwn(COMMAND_HELP, page) ? COMMAND_HELP[page]! : USAGE;
    out(json ? JSON.stringify({ help: text }) : text);
    return 0;
  }
  if (!cmd) return fail('USAGE', USAGE.split('\n')[0]!.replace(/ +\(.*$/, ''), 2, helpOf(undefined));
  const problem = argumentProblem(cmd, v);
  if (problem) return fail('USAGE', problem, 2, helpOf(cmd));
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (!command)
    return fail('USAGE', `unknown command ${cmd}: one of ${Object.keys(COMMANDS).join(', ')}`, 2, helpOf(undefined));
  const cli: Cli = { cmd, arg, more, v, env, json, out, err, fail };
  try {
    return await command(cli);
  } catch (e) {
    if (e instanceof UsageError) return fail('USAGE', e.message, 2, helpOf(cmd));
    if (e instanceof BuyerRefused) return fail('REFUSED', e.message, 1);
    return fail('ERROR', describeError(e), 1);
  }
}

async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
