import { parseArgs as parseArgv } from 'node:util';
import { isCalendarDay } from '../../src/operator/calendar-day.js';
import { UsageError } from '../../src/operator/usage-error.js';

export { isCalendarDay, UsageError };

// The operator CLI's arguments, parsed by `node:util` parseArgs (strict: an unknown option or a
// missing value is a usage error, never silently ignored) into positionals and a flag map. Each
// command declares its options (name → 'string' | 'boolean'); `--help` and `-h` are understood
// everywhere (wantsHelp), so the CLI answers `<command> --help` with that command's usage before the
// command checks its arguments, and never acts on such a line.

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export type OptionKinds = Readonly<Record<string, 'string' | 'boolean'>>;

const HELP = 'help';

/** Whether a command line asks for help: `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === `--${HELP}`);
}

export function parseArgs(argv: readonly string[], kinds: OptionKinds): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries({ ...kinds, [HELP]: 'boolean' as const }).map(([name, type]) => [
      name,
      { type, ...(name === HELP ? { short: 'h' } : {}) },
    ]),
  );
  let parsed;
  try {
    parsed = parseArgv({ args: [...argv], options, allowPositionals: true, strict: true, tokens: false });
  } catch (err) {
    const known =
      Object.keys(kinds)
        .map((k) => `--${k}`)
        .join(', ') || 'none';
    const code = (err as { code?: string }).code;
    const option = /'(-[^' ]+)/.exec((err as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new UsageError(`unknown option ${option ?? ''} (expected ${known})`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(
        option && kinds[option.replace(/^--/, '')] === 'boolean'
          ? `${option} takes no value`
          : `${option ?? 'an option'} needs a value`,
      );
    throw new UsageError((err as Error).message);
  }
  const flags = new Map<string, string | true>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || value === true) flags.set(name, value);
  }
  return { positionals: parsed.positionals, flags };
}

/** Refuses flags the command does not know. */
export function onlyFlags(args: ParsedArgs, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name))
      throw new UsageError(`unknown option --${name} (expected ${allowed.map((a) => `--${a}`).join(', ') || 'none'})`);
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export const boolFlag = (args: ParsedArgs, name: string): boolean => args.flags.get(name) === true;

/** A flag holding a day (YYYY-MM-DD, UTC), or undefined when absent. */
export function dayFlag(args: ParsedArgs, name: string): string | undefined {
  const v = stringFlag(args, name);
  if (v !== undefined && !isCalendarDay(v))
    throw new UsageError(`--${name} must be a day written YYYY-MM-DD (got ${JSON.stringify(v)})`);
  return v;
}
