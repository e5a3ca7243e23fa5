import { parsePurchaseIdArg } from '../../src/operator/purchase-id.js';
import { CHAIN_UNAVAILABLE } from '../../src/operator/refunds.js';
import type { UseCaseResult } from '../../src/operator/use-cases.js';
import { REFUND_STREAM_PREFIX } from '../../streams/refund/index.js';
import { redactTokenLike } from '../../streams/refund/claim-in-text.js';
import { boolFlag, onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { shortId, table } from './table.js';

// `refunds` — the operator's side of refund requests (spec §3: operator-reviewed, never automatic):
//   refunds [--all] [--json]                                     open requests (requested, approved); --all: every one
//   refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>
//   refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>
// `paid` records a refund the operator transferred by hand, once the service's use-case found it on
// the chain (src/operator/refunds.ts). <purchase-id> is the id, `purchase-<id>`, `refund-<id>` or a
// unique prefix. Each change is decided on the folded stream and appended at its revision, so two
// operators acting at once cannot both succeed.

const USAGE =
  'refunds [--all] [--json] | ' +
  'refunds review <purchase-id> --decision approve|reject --note "…" --operator <name> | ' +
  'refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>';

export async function refunds(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  const [sub, id, ...extra] = args.positionals;
  if (sub === undefined) return list(ctx, args);
  if (extra.length > 0 || !id) throw new UsageError(USAGE);
  if (sub === 'review') return change(ctx, args, id, 'review');
  if (sub === 'paid') return change(ctx, args, id, 'paid');
  throw new UsageError(USAGE);
}

async function list(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['all', 'json']);
  const all = boolFlag(args, 'all');
  const shown = await ctx.service.run({ use: 'refunds', all });
  if (args.flags.has('json')) {
    ctx.out(
      JSON.stringify({
        refunds: shown.map((l) => ({
          purchase_id: l.purchase_id,
          status: l.state.status,
          request: l.state.request,
          review: l.state.review ?? null,
          payment: l.state.payment ?? null,
        })),
      }),
    );
    return EXIT.ok;
  }
  if (shown.length === 0) {
    ctx.out(all ? 'no refund request was ever filed' : 'no refund request waits for an operator');
    return EXIT.ok;
  }
  for (const l of table(
    ['id', 'status', 'reason', 'amount_micro', 'charge_tx', 'requested_at'],
    shown.map((l) => {
      const r = l.state.request!;
      return [
        shortId(l.purchase_id),
        l.state.status,
        r.reason,
        r.charge.amount_micro,
        r.charge.transaction ?? '(unresolved)',
        r.at,
      ];
    }),
  ))
    ctx.out(l);
  for (const l of shown) {
    if (l.state.request!.message) ctx.out(`\n${l.purchase_id}: "${redactTokenLike(l.state.request!.message)}"`);
  }
  ctx.out('');
  ctx.out(
    'review one with: ' +
      'npm run ops -- refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>',
  );
  return EXIT.ok;
}

async function change(ctx: OperatorContext, args: ParsedArgs, id: string, what: 'review' | 'paid'): Promise<number> {
  onlyFlags(
    args,
    what === 'review' ? ['decision', 'note', 'operator', 'json'] : ['tx', 'amount', 'note', 'operator', 'json'],
  );
  const note = stringFlag(args, 'note')?.trim();
  const operator = stringFlag(args, 'operator')?.trim();
  if (!note) throw new UsageError('--note is required: say what was checked and why');
  if (!operator) throw new UsageError('--operator is required: who takes responsibility');
  const at = ctx.now().toISOString();
  const purchase = parsePurchaseIdArg(id.startsWith(REFUND_STREAM_PREFIX) ? id.slice(REFUND_STREAM_PREFIX.length) : id);
  let outcome: UseCaseResult<'refund-review' | 'refund-paid'>;
  if (what === 'review') {
    const decision = stringFlag(args, 'decision');
    if (decision !== 'approve' && decision !== 'reject') throw new UsageError('--decision must be approve or reject');
    const data = {
      decision: decision === 'approve' ? ('approved' as const) : ('rejected' as const),
      note,
      operator,
      at,
    };
    outcome = await ctx.service.run({ use: 'refund-review', purchase, data });
  } else {
    const tx = stringFlag(args, 'tx');
    const amount = stringFlag(args, 'amount');
    if (!tx || !/^0x[0-9a-fA-F]{64}$/.test(tx))
      throw new UsageError('--tx must be the 0x-prefixed hash of the refund transfer the operator made');
    if (!amount || !/^(0|[1-9][0-9]*)$/.test(amount))
      throw new UsageError('--amount must be the refunded micro-USDC as an integer');
    const data = { transaction: tx as `0x${string}`, amount_micro: amount, note, operator, at };
    outcome = await ctx.service.run({ use: 'refund-paid', purchase, data });
  }
  if ('refused' in outcome) {
    if (args.flags.has('json')) ctx.out(JSON.stringify({ refused: outcome.refused }));
    else ctx.err(`refused ${outcome.refused.code}: ${outcome.refused.message}`);
    return outcome.refused.code === CHAIN_UNAVAILABLE ? EXIT.cannotRun : EXIT.finding;
  }
  if (args.flags.has('json')) ctx.out(JSON.stringify({ refund: outcome.done }));
  else ctx.out(`${outcome.done.stream}: ${outcome.done.from} → ${outcome.done.to} by ${operator}`);
  return EXIT.ok;
}
