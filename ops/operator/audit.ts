import type { Violation } from '../../src/operator/violation.js';
import { parsePurchaseIdArg } from '../../src/operator/purchase-id.js';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { shortId, table } from './table.js';
import { chainChangeNotice, readChainHistory } from '../../src/devnet/chain-history.js';

// `audit [--purchase <id>] [--json]`: the ledger's invariants checked on every purchase and refund
// stream (src/operator/audit.ts says which). Exit 1 on any violation (or a prefix that names no single
// purchase).

export async function audit(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['purchase', 'json']);
  if (args.positionals.length > 0) throw new UsageError('audit takes no arguments (use --purchase <id>)');
  const one = stringFlag(args, 'purchase');
  const outcome = await ctx.service.run({
    use: 'audit',
    ...(one === undefined ? {} : { purchase: parsePurchaseIdArg(one) }),
  });
  if ('refused' in outcome) {
    if (args.flags.has('json')) ctx.out(JSON.stringify({ refused: outcome.refused }));
    else ctx.err(`refused ${outcome.refused.code}: ${outcome.refused.message}`);
    return EXIT.finding;
  }
  const { audits, refunds } = outcome;
  // The chains this data directory's purchases were settled on (src/devnet/chain-history.ts): more than one
  // means earlier settlements are on a chain that is gone (the development devnet starts anew).
  const chains = (await readChainHistory(ctx.config.dataDir)).chains;
  const current = chains.at(-1);
  const previous = chains.at(-2);
  const chainNotice = current && previous ? chainChangeNotice(previous, current) : undefined;

  const badRefunds = refunds.filter((a) => a.violations.length > 0);
  const bad = audits.filter((a) => a.violations.length > 0);
  if (args.flags.has('json'))
    ctx.out(JSON.stringify({ ...outcome, chains, ...(chainNotice ? { chain_notice: chainNotice } : {}) }));
  else {
    const rows = audits.map((a) => [
      shortId(a.purchase_id),
      a.status,
      String(a.events),
      a.violations.length === 0 ? 'ok' : `${a.violations.length} violation(s)`,
    ]);
    for (const l of table(['id', 'status', 'events', 'result'], rows)) ctx.out(l);
    const printViolations = (label: string, violations: Violation[]) => {
      ctx.out(`${label}:`);
      for (const x of violations) ctx.out(`  rev ${x.revision.padStart(3)}  ${x.check.padEnd(10)} ${x.message}`);
    };
    for (const a of bad) {
      ctx.out('');
      printViolations(a.purchase_id, a.violations);
    }
    ctx.out('');
    ctx.out(
      `audited ${audits.length} purchase stream(s) with evidence key ${outcome.key_id}: ` +
        `${bad.length === 0 ? 'no violations' : `${bad.length} with violations`}`,
    );
    if (chainNotice) ctx.out(`chains: ${chains.length} recorded; ${chainNotice}`);
    if (refunds.length > 0) {
      for (const a of badRefunds) printViolations(`refund-${a.purchase_id}`, a.violations);
      ctx.out(
        `audited ${refunds.length} refund request stream(s): ` +
          `${badRefunds.length === 0 ? 'no violations' : `${badRefunds.length} with violations`}`,
      );
    }
  }
  return bad.length === 0 && badRefunds.length === 0 ? EXIT.ok : EXIT.finding;
}
