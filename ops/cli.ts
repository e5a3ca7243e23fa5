import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../src/config.js';
import { parseArgs, UsageError } from './operator/args.js';
import { EXIT, OperatorStoreLocked, type OperatorContext } from './operator/context.js';
import { audit } from './operator/audit.js';
import { keys } from './operator/keys.js';
import { move } from './operator/move.js';
import { queue } from './operator/queue.js';
import { replay } from './operator/replay.js';
import { refunds } from './operator/refunds.js';

// The operator CLI (DESIGN.md §1, `ops/`): `npm run ops -- <command>`. Same configuration as the
// service (EVENT_STORE_URL, DATA_DIR, EVIDENCE_KEY). Exit codes: 0 fine, 1 a finding (audit violation,
// refused move), 2 could not run (usage, configuration, store locked by the running service).

const COMMANDS = { replay, audit, queue, move, refunds, keys } as const;

const USAGE = `usage: npm run ops -- <command>
  replay [--json]                                              empty and rebuild every read model from the first event
  audit [--purchase <id>] [--json]                             check every purchase stream's invariants (exit 1 on a violation)
  queue [--json]                                               the investigation queue: held and stuck purchases with their history
  move <purchase-id> --to <target> --note "…" --operator <name> [--settlement '<json>']
                                                               move a held/stuck purchase on (retry_settlement | accept_settlement | closed_no_charge | closed_settled_delivered)
  refunds [--all] [--json]                                     refund requests waiting for an operator (--all: every one)
  refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>
  refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>
                                                               record a refund the operator transferred by hand (the service never sends one)
  keys [--json]                                                the evidence public key (never the seed)`;

export async function runCli(argv: readonly string[], io: { out: (l: string) => void; err: (l: string) => void } = { out: (l) => process.stdout.write(l + '\n'), err: (l) => process.stderr.write(l + '\n') }, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? io.out : io.err)(USAGE);
    return name ? EXIT.ok : EXIT.cannotRun;
  }
  const command = (COMMANDS as Record<string, (ctx: OperatorContext, args: ReturnType<typeof parseArgs>) => Promise<number>>)[name];
  if (!command) {
    io.err(`unknown command ${name}\n${USAGE}`);
    return EXIT.cannotRun;
  }
  try {
    const config = loadConfig(env);
    const args = parseArgs(rest, ['json', 'all']);
    return await command({ config, out: io.out, err: io.err, now: () => new Date() }, args);
  } catch (err) {
    if (err instanceof UsageError) io.err(`${name}: ${err.message}\n${USAGE}`);
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
