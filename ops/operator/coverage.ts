import type { UseCaseResult } from '../../src/operator/use-cases.js';
import type { ReviewObservation } from '../../streams/coverage/index.js';
import { boolFlag, onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { table } from './table.js';

// `coverage` — which origins the service covers, in the ledger (src/operator/coverage.ts):
//   coverage list [--json]                                              every origin the ledger names
//   coverage history [<origin>] [--json]                                who changed what, when, why
//   coverage review <origin> --operator <name> --reason "…" [--json]    discovery now: what a buyer gets
//   coverage add <origin> --operator <name> --reason "…" [--json]       cover it (on a review ≤ 7 days old)
//   coverage withdraw <origin> --operator <name> --reason "…" [--json]  stop quoting it
// A change reaches every instance on the same store within a second, without a restart.

const USAGE =
  'coverage [list] [--json] | coverage history [<origin>] [--json] | ' +
  'coverage review|add|withdraw <origin> --operator <name> --reason "…" [--json]';

export async function coverage(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  const [sub = 'list', origin, ...extra] = args.positionals;
  if (extra.length > 0) throw new UsageError(USAGE);
  if (sub === 'list' && origin === undefined) return list(ctx, args);
  if (sub === 'history') return history(ctx, args, origin);
  if ((sub === 'review' || sub === 'add' || sub === 'withdraw') && origin) return change(ctx, args, sub, origin);
  throw new UsageError(USAGE);
}

async function list(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  const lines = await ctx.service.run({ use: 'coverage-list' });
  if (boolFlag(args, 'json')) {
    ctx.out(JSON.stringify({ coverage: lines }));
    return EXIT.ok;
  }
  if (lines.length === 0) {
    ctx.out('the coverage ledger is empty: review an origin, then add it (coverage review <origin> …)');
    return EXIT.ok;
  }
  for (const l of table(
    ['origin', 'status', 'since', 'reviewed_at', 'reviewed_by'],
    lines.map((l) => [l.origin, l.status, l.since ?? '-', l.reviewed_at ?? '-', l.reviewed_by ?? '-']),
  ))
    ctx.out(l);
  return EXIT.ok;
}

async function history(ctx: OperatorContext, args: ParsedArgs, origin: string | undefined): Promise<number> {
  onlyFlags(args, ['json']);
  const lines = await ctx.service.run({ use: 'coverage-history', ...(origin ? { origin } : {}) });
  if (boolFlag(args, 'json')) {
    ctx.out(JSON.stringify({ history: lines }));
    return EXIT.ok;
  }
  if (lines.length === 0) ctx.out(origin ? `the ledger says nothing about ${origin}` : 'the coverage ledger is empty');
  for (const l of lines) {
    const d = l.data as { at: string; origin?: string; origins?: string[]; operator?: string; reason?: string };
    const what = d.origin ?? (d.origins ?? []).join(', ');
    const who = d.operator ? ` by ${d.operator}: ${d.reason}` : ' from COVERED_ORIGINS';
    ctx.out(`${d.at}  ${l.type.padEnd(15)} ${what}${who}`);
  }
  return EXIT.ok;
}

async function change(
  ctx: OperatorContext,
  args: ParsedArgs,
  what: 'review' | 'add' | 'withdraw',
  origin: string,
): Promise<number> {
  onlyFlags(args, ['operator', 'reason', 'json']);
  const operator = stringFlag(args, 'operator')?.trim();
  const reason = stringFlag(args, 'reason')?.trim();
  if (!operator) throw new UsageError('--operator is required: who takes responsibility');
  if (!reason) throw new UsageError('--reason is required: why (the publisher asked, a contract, a complaint…)');
  const outcome: UseCaseResult<'coverage-add'> = await ctx.service.run({
    use: `coverage-${what}` as const,
    data: { origin, operator, reason },
  });
  if ('refused' in outcome) {
    if (boolFlag(args, 'json')) ctx.out(JSON.stringify({ refused: outcome.refused }));
    else ctx.err(`refused ${outcome.refused.code}: ${outcome.refused.message}`);
    return EXIT.finding;
  }
  if (boolFlag(args, 'json')) {
    ctx.out(JSON.stringify({ change: outcome }));
    return EXIT.ok;
  }
  const e = outcome.event;
  if (e.type === 'OriginReviewed') {
    for (const l of reviewLines(e.data.observed)) ctx.out(l);
    ctx.out(`\nrecorded the review of ${e.data.origin}`);
    ctx.out(`cover it with: npm run ops -- coverage add ${e.data.origin} --operator … --reason "…"`);
  } else ctx.out(`${e.type} ${origin} by ${operator} (ledger revision ${outcome.revision})`);
  return EXIT.ok;
}

const yesNo = (b: boolean): string => (b ? 'yes' : 'no');

/** What a buyer of a report on the origin's home page would get, as the review observed it. */
function reviewLines(o: ReviewObservation): string[] {
  return [
    `discovery on ${o.resource} at ${o.observed_at}`,
    `  RSL declaration found: ${yesNo(o.declaration_found)}; discovery complete: ${yesNo(o.discovery_complete)}`,
    ...o.channels.map((c) => `  ${c.channel.padEnd(9)} ${c.url}  ${c.error ?? c.status ?? '-'}`),
    ...o.license_documents.map(
      (d) =>
        `  license  ${d.url} (${d.channel}${d.parsed ? '' : ', not parsed'}${d.conformant ? '' : ', not conformant'})`,
    ),
    ...o.purposes.map((p) => `  ${p.purpose.padEnd(9)} ${p.classification} (${p.decision})`),
    ...(o.signals.length === 0
      ? ['  other AI-use signals: none']
      : o.signals.map((s) => `  signal   ${s.standard} via ${s.channel}: ${s.statement}`)),
    ...o.diagnostics.map((d) => `  note     ${d}`),
  ];
}
