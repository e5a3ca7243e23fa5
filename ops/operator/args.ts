// A tiny argv parser for the operator CLI: positionals plus `--flag value` / `--flag=value` /
// boolean `--flag`. Unknown flags are refused by each command (a typo must not be silently ignored).
// `--help` and `-h` are understood everywhere (wantsHelp), so the CLI answers `<command> --help` with
// that command's usage before the command checks its arguments, and never acts on such a line.

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {
  readonly code = 'USAGE';
}

const HELP = 'help';

/** Whether a command line asks for help: `--help` or `-h` anywhere before a `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '-h' || a === `--${HELP}`);
}

export function parseArgs(argv: readonly string[], booleanFlags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break; }
    if (arg === '-h') { flags.set(HELP, true); continue; }
    if (!arg.startsWith('--')) { positionals.push(arg); continue; }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq >= 0) flags.set(name, arg.slice(eq + 1));
    else if (name === HELP || booleanFlags.includes(name)) flags.set(name, true);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
      i++;
    }
  }
  return { positionals, flags };
}

/** Refuses flags the command does not know. */
export function onlyFlags(args: ParsedArgs, allowed: readonly string[]): void {
  for (const name of args.flags.keys()) {
    if (!allowed.includes(name)) throw new UsageError(`unknown option --${name} (expected ${allowed.map((a) => `--${a}`).join(', ') || 'none'})`);
  }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export const boolFlag = (args: ParsedArgs, name: string): boolean => args.flags.get(name) === true;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDay(s: string): boolean {
  if (!DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A flag holding a day (YYYY-MM-DD, UTC), or undefined when absent. */
export function dayFlag(args: ParsedArgs, name: string): string | undefined {
  const v = stringFlag(args, name);
  if (v !== undefined && !isCalendarDay(v)) throw new UsageError(`--${name} must be a day written YYYY-MM-DD (got ${JSON.stringify(v)})`);
  return v;
}
