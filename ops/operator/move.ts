import { isLeft } from 'fp-ts/lib/Either.js';
import { parsePurchaseIdArg } from '../../src/operator/purchase-id.js';
import { OperatorTarget, SettledData, type PurchaseEventData } from '../../streams/purchase/events.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';

// `move <purchase-id> --to <target> --note "…" --operator <name> [--settlement '<Settled JSON>']`
// (the id, `purchase-<id>` or a unique prefix): the only way a held or stuck purchase moves on
// (src/operator/move.ts: decided on the folded stream and appended at its revision, so a concurrent
// change makes the append fail instead of acting on a stale view). Refusals print their code.

const TARGETS = Object.keys(OperatorTarget.keys).join(' | ');

export async function move(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['to', 'note', 'operator', 'settlement', 'json']);
  const [id, ...extra] = args.positionals;
  if (!id || extra.length > 0)
    throw new UsageError('usage: move <purchase-id> --to <target> --note "…" --operator <name>');
  const purchase = parsePurchaseIdArg(id);
  const to = stringFlag(args, 'to');
  const note = stringFlag(args, 'note')?.trim();
  const operator = stringFlag(args, 'operator')?.trim();
  if (!to || !OperatorTarget.is(to)) throw new UsageError(`--to must be one of ${TARGETS}`);
  if (!note) throw new UsageError('--note is required: say what was checked and why');
  if (!operator) throw new UsageError('--operator is required: who takes responsibility for the move');
  let settlement: PurchaseEventData<'Settled'> | undefined;
  const settlementJson = stringFlag(args, 'settlement');
  if (settlementJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(settlementJson);
    } catch {
      throw new UsageError('--settlement must be JSON: {"network","transaction","payer","amount","block"}');
    }
    const decoded = SettledData.decode(parsed);
    if (isLeft(decoded))
      throw new UsageError(
        '--settlement does not match the Settled event data {network, transaction, payer, amount, block}',
      );
    settlement = decoded.right;
  }

  const data: PurchaseEventData<'OperatorMoved'> = {
    target: to,
    note,
    operator,
    at: ctx.now().toISOString(),
    ...(settlement ? { settlement } : {}),
  };
  const outcome = await ctx.service.run({ use: 'move', purchase, data });

  if ('refused' in outcome) {
    const r = outcome.refused;
    if (args.flags.has('json')) ctx.out(JSON.stringify({ refused: r }));
    else
      ctx.err(
        `refused ${r.code}: ${r.message}` +
          `${r.details && Object.keys(r.details).length ? ' ' + JSON.stringify(r.details) : ''}`,
      );
    return EXIT.finding;
  }
  const m = outcome.moved;
  if (args.flags.has('json')) ctx.out(JSON.stringify({ moved: { purchase_id: outcome.purchaseId, ...m } }));
  else
    ctx.out(
      `moved ${streamName(outcome.purchaseId)}: ${m.from} → ${m.to} ` +
        `(OperatorMoved at revision ${m.revision}, position ${m.position}) by ${operator}`,
    );
  return EXIT.ok;
}
