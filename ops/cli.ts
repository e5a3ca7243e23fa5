import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.js';
import { parseArgs, UsageError, wantsHelp, type ParsedArgs } from './operator/args.js';
import { EXIT, OperatorStoreLocked, type OperatorContext } from './operator/context.js';
import { audit } from './operator/audit.js';
import { compliance } from './operator/compliance.js';
import { keys } from './operator/keys.js';
import { move } from './operator/move.js';
import { purchases } from './operator/purchases-command.js';
import { queue } from './operator/queue.js';
import { replay } from './operator/replay.js';
import { refunds } from './operator/refunds.js';
import { show } from './operator/show.js';

// The operator CLI (DESIGN.md §1, `ops/`): `npm run ops -- <command>`. Same configuration as the
// service (EVENT_STORE_URL, DATA_DIR, EVIDENCE_KEY). Exit codes: 0 fine, 1 a finding (audit violation,
// refused move), 2 could not run (usage, configuration, store locked by the running service).

type Command = (ctx: OperatorContext, args: ParsedArgs) => Promise<number>;

/** Each command with its usage lines: [synopsis, what it does] (a long synopsis puts the text on the next line). */
const COMMANDS: Record<string, { run: Command; usage: readonly (readonly [string, string])[] }> = {
  replay: { run: replay, usage: [['replay [--json]', 'empty and rebuild every read model from the first event']] },
  audit: { run: audit, usage: [['audit [--purchase <id>] [--json]', 'check every purchase stream\'s invariants (exit 1 on a violation)']] },
  queue: { run: queue, usage: [['queue [--json]', 'the investigation queue: held and stuck purchases with their history']] },
  purchases: {
    run: purchases,
    usage: [['purchases [--status S] [--since DATE] [--origin O] [--limit N] [--json]', 'purchases from the report view, newest first (DATE: YYYY-MM-DD or ISO time; N: 1..10000)']],
  },
  show: { run: show, usage: [['show <id> [--json]', 'one purchase: its report-view row, every event of its stream, its refund request']] },
  move: {
    run: move,
    usage: [['move <purchase-id> --to <target> --note "…" --operator <name> [--settlement \'<json>\']',
      'move a held/stuck purchase on (retry_settlement | accept_settlement | closed_no_charge | closed_settled_delivered)']],
  },
  refunds: {
    run: refunds,
    usage: [
      ['refunds [--all] [--json]', 'refund requests waiting for an operator (--all: every one)'],
      ['refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>', ''],
      ['refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>', 'record a refund the operator transferred by hand (the service never sends one)'],
    ],
  },
  compliance: {
    run: compliance,
    usage: [
      ['compliance export --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format csv|jsonl [--out FILE]', 'delivered reports for auditors, streamed to FILE (mode 0600) or stdout'],
      ['compliance report --out FILE.html [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]', 'the daily totals as one HTML page'],
    ],
  },
  keys: { run: keys, usage: [['keys [--json]', 'the evidence public key (never the seed)'], ['keys generate [--json]', 'new EVIDENCE_KEY, CHECKPOINT_KEY and CLAIM_SECRET for production']] },
};

const COLUMN = 61;
const usageLines = (lines: readonly (readonly [string, string])[]): string =>
  lines.map(([synopsis, what]) => {
    if (!what) return `  ${synopsis}`;
    return synopsis.length < COLUMN - 1 ? `  ${synopsis.padEnd(COLUMN)}${what}` : `  ${synopsis}\n  ${' '.repeat(COLUMN)}${what}`;
  }).join('\n');

const IDS = '<id>/<purchase-id>: the 64 hex characters, purchase-<id>, or a unique prefix of at least 4 (git style)';
const USAGE = `usage: npm run ops -- <command>   (<command> --help: that command alone)
${Object.values(COMMANDS).map((c) => usageLines(c.usage)).join('\n')}
${IDS}`;
function commandUsage(name: string): string {
  const lines = usageLines(COMMANDS[name]!.usage);
  return `usage: npm run ops -- ${name} …\n${lines}${/<(purchase-)?id>/.test(lines) ? `\n${IDS}` : ''}`;
}

export async function runCli(argv: readonly string[], io: { out: (l: string) => void; err: (l: string) => void } = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') }, env: NodeJS.ProcessEnv = process.env): Promise<number> {
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
    const args = parseArgs(rest, ['json', 'all']);
    const config = loadConfig(env);
    return await command.run({ config, out: io.out, err: io.err, now: () => new Date() }, args);
  } catch (err) {
    if (err instanceof UsageError) io.err(`${name}: ${err.message}\n${commandUsage(name)}`);
    else if (err instanceof ConfigError) io.err(err.message);
    else if (err instanceof OperatorStoreLocked) io.err(err.message);
    else {
      io.err(`${name} failed: ${(err as Error).message ?? String(err)}`);
      return EXIT.cannotRun;
    }
    return EXIT.cannotRun;
  }
}

// Run only as the entry point (tests may import runCli).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
