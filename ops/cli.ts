import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, UsageError, wantsHelp, type OptionKinds, type ParsedArgs } from './operator/args.js';
import { ConfigError } from '../src/config/config-error.js';
import {
  EXIT,
  OperatorListenerRefused,
  OperatorNoStore,
  OperatorStoreLocked,
  type OperatorContext,
} from './operator/context.js';

// The operator CLI (`ops/`): `npm run ops -- <command>`. Same configuration as the
// service (EVENT_STORE_URL, DATA_DIR, EVIDENCE_KEY; `--data-dir DIR` stands for DATA_DIR). When the
// service runs, its operator listener answers (Unix socket in DATA_DIR, or OPERATOR_LISTEN with
// OPERATOR_TOKEN) and the command's use-cases run there, on the service's open store
// (ops/client/relayed-service.ts); otherwise the CLI opens the store itself (operator/local-service.ts).
// The command checks its arguments and prints here either way, so output and exit codes are the same.
// Each command's code, the configuration and either service are imported when the command runs: a
// command loads only what it uses, and `--help` loads none of it (docs/decisions.md, "Operator
// commands start from built code").
// Exit codes: 0 fine, 1 a finding (audit violation, refused move), 2 could not run (usage,
// configuration, no store, store locked).

type Command = (ctx: OperatorContext, args: ParsedArgs) => Promise<number>;

interface CommandEntry {
  /** Imports the command's code when it runs. */
  run: () => Promise<Command>;
  /** The command's options for node:util parseArgs (--help/-h and --data-dir are everyone's). */
  options: OptionKinds;
  usage: readonly (readonly [string, string])[];
  /** Never reaches the running service's use-cases (it serves the console itself). */
  here?: true;
}

const JSON_ONLY = { json: 'boolean' } as const;
const GLOBAL: OptionKinds = { 'data-dir': 'string' };

/** Each command with its usage lines: [synopsis, what it does] (a long synopsis puts the text on the next line). */
const COMMANDS: Record<string, CommandEntry> = {
  replay: {
    run: async () => (await import('./operator/replay.js')).replay,
    options: JSON_ONLY,
    usage: [['replay [--json]', 'empty and rebuild every read model from the first event']],
  },
  audit: {
    run: async () => (await import('./operator/audit.js')).audit,
    options: { purchase: 'string', json: 'boolean' },
    usage: [['audit [--purchase <id>] [--json]', "check every purchase stream's invariants (exit 1 on a violation)"]],
  },
  queue: {
    run: async () => (await import('./operator/queue.js')).queue,
    options: JSON_ONLY,
    usage: [['queue [--json]', 'the investigation queue: held and stuck purchases with their history']],
  },
  purchases: {
    run: async () => (await import('./operator/purchases-command.js')).purchases,
    options: { status: 'string', since: 'string', origin: 'string', limit: 'string', json: 'boolean' },
    usage: [
      [
        'purchases [--status S] [--since DATE] [--origin O] [--limit N] [--json]',
        'purchases from the report view, newest first (DATE: YYYY-MM-DD or ISO time; N: 1..10000)',
      ],
    ],
  },
  show: {
    run: async () => (await import('./operator/show.js')).show,
    options: JSON_ONLY,
    usage: [['show <id> [--json]', 'one purchase: its report-view row, every event of its stream, its refund request']],
  },
  move: {
    run: async () => (await import('./operator/move.js')).move,
    options: { to: 'string', note: 'string', operator: 'string', settlement: 'string', json: 'boolean' },
    usage: [
      [
        'move <purchase-id> --to <target> --note "…" --operator <name> [--settlement \'<json>\']',
        'move a held/stuck purchase on ' +
          '(retry_settlement | accept_settlement | closed_no_charge | closed_settled_delivered)',
      ],
    ],
  },
  refunds: {
    run: async () => (await import('./operator/refunds.js')).refunds,
    options: {
      all: 'boolean',
      json: 'boolean',
      decision: 'string',
      note: 'string',
      operator: 'string',
      tx: 'string',
      amount: 'string',
    },
    usage: [
      ['refunds [--all] [--json]', 'refund requests waiting for an operator (--all: every one)'],
      ['refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>', ''],
      [
        'refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>',
        'record a refund the operator transferred by hand (the service never sends one)',
      ],
    ],
  },
  compliance: {
    run: async () => (await import('./operator/compliance.js')).compliance,
    options: { from: 'string', to: 'string', format: 'string', out: 'string', json: 'boolean', of: 'string' },
    usage: [
      [
        'compliance export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format csv|jsonl [--out FILE [--json]]',
        'delivered reports for auditors, streamed to FILE (mode 0600) or stdout',
      ],
      [
        'compliance export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format csv|jsonl --of coverage [--out FILE]',
        'what was covered on each day: one record per day and origin, with the ledger changes',
      ],
      [
        'compliance report --out FILE.html [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] [--json]',
        'the daily totals as one HTML page',
      ],
    ],
  },
  coverage: {
    run: async () => (await import('./operator/coverage.js')).coverage,
    options: { operator: 'string', reason: 'string', json: 'boolean' },
    usage: [
      ['coverage [list] [--json]', 'the origins the coverage ledger names, covered or not'],
      ['coverage history [<origin>] [--json]', 'who reviewed, added or withdrew what, when and why'],
      [
        'coverage review|add|withdraw <origin> --operator <name> --reason "…"',
        'review: discovery on the origin now (what a buyer gets); add it on that review; withdraw it',
      ],
    ],
  },
  keys: {
    run: async () => (await import('./operator/keys.js')).keys,
    options: JSON_ONLY,
    usage: [
      ['keys [--json]', 'the evidence public key (never the seed)'],
      ['keys generate [--json]', 'new EVIDENCE_KEY, CHECKPOINT_KEY and CLAIM_SECRET for production'],
    ],
  },
  console: {
    run: async () => (await import('./client/console-command.js')).consoleCommand,
    options: { port: 'string', json: 'boolean' },
    here: true,
    usage: [
      [
        'console [--port N] [--json]',
        'the operator console of the running service, on a loopback URL (runs until Ctrl-C)',
      ],
    ],
  },
};

const COLUMN = 61;
const usageLines = (lines: readonly (readonly [string, string])[]): string =>
  lines
    .map(([synopsis, what]) => {
      if (!what) return `  ${synopsis}`;
      return synopsis.length < COLUMN - 1
        ? `  ${synopsis.padEnd(COLUMN)}${what}`
        : `  ${synopsis}\n  ${' '.repeat(COLUMN)}${what}`;
    })
    .join('\n');

const IDS = '<id>/<purchase-id>: the 64 hex characters, purchase-<id>, or a unique prefix of at least 4 (git style)';
const USAGE = `usage: npm run ops -- <command> [--data-dir DIR]   (<command> --help: that command alone)
${Object.values(COMMANDS)
  .map((c) => usageLines(c.usage))
  .join('\n')}
${IDS}`;
function commandUsage(name: string): string {
  const lines = usageLines(COMMANDS[name]!.usage);
  return `usage: npm run ops -- ${name} …\n${lines}${/<(purchase-)?id>/.test(lines) ? `\n${IDS}` : ''}`;
}

export async function runCli(
  argv: readonly string[],
  io: { out: (l: string) => void; err: (l: string) => void } = {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
  },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? io.out : io.err)(USAGE);
    return name ? EXIT.ok : EXIT.cannotRun;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined;
  if (!command) {
    io.err(`unknown command ${name}\n${USAGE}`);
    return EXIT.cannotRun;
  }
  if (wantsHelp(rest)) {
    io.out(commandUsage(name));
    return EXIT.ok;
  }
  try {
    const args = parseArgs(rest, { ...command.options, ...GLOBAL });
    const dataDir = args.flags.get('data-dir');
    args.flags.delete('data-dir');
    const { loadConfig } = await import('../src/config/config.js');
    const config = loadConfig(typeof dataDir === 'string' ? { ...env, DATA_DIR: dataDir } : env);
    const now = () => new Date();
    const listener = command.here
      ? undefined
      : await (await import('./client/operator-listener.js')).reachOperatorListener(config);
    const service = listener
      ? (await import('./client/relayed-service.js')).relayedService(listener)
      : (await import('./operator/local-service.js')).localService(config, now);
    const run = await command.run();
    return await run({ config, out: io.out, err: io.err, now, service }, args);
  } catch (err) {
    return failed(name, err, io);
  }
}

function failed(name: string, err: unknown, io: { err: (l: string) => void }): number {
  if (err instanceof UsageError) io.err(`${name}: ${err.message}\n${commandUsage(name)}`);
  else if (
    err instanceof ConfigError ||
    err instanceof OperatorStoreLocked ||
    err instanceof OperatorNoStore ||
    err instanceof OperatorListenerRefused
  )
    io.err(err.message);
  else io.err(`${name} failed: ${(err as Error).message ?? String(err)}`);
  return EXIT.cannotRun;
}

// Run only as the entry point (tests may import runCli).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
