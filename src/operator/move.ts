import { isLeft } from 'fp-ts/lib/Either.js';
import { handleCommand } from '../../src/command/handle-command.js';
import { WrongExpectedRevision, type EventStore } from '../../src/store/port.js';
import { OperatorTarget, SettledData, type PurchaseEventData } from '../../streams/purchase/events.js';
import { purchaseDecider } from '../../streams/purchase/decider.js';
import { PurchaseRefused } from '../../streams/purchase/refusals.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { parsePurchaseIdArg, withPurchase } from './purchase-id-arg.js';

// `move <purchase-id> --to <target> --note "…" --operator <name> [--settlement '<Settled JSON>']`
// (the id, `purchase-<id>` or a unique prefix: ./purchase-id-arg.ts): the only way a held or stuck
// purchase moves on. The one command handler reads the stream, folds it, asks `decide` for an
// OperatorMoved and appends it at the folded revision, so a concurrent change (the service, another
// operator) makes the append fail instead of acting on a stale view. Refusals print their code.

const TARGETS = Object.keys(OperatorTarget.keys).join(' | ');

export type MoveOutcome =
  | { refused: { code: string; message: string; details?: Record<string, unknown> } }
  | { moved: { from: string; to: string; position: string; revision: string } };

/**
 * The OperatorMove command through the one command handler; no retry: the operator looks again. With
 * `expectedRevision` (the revision the operator looked at, e.g. on the console) a stream that moved on
 * since is refused CONCURRENT_CHANGE before deciding: the operator decided on what they saw.
 */
export async function movePurchase(
  store: EventStore,
  stream: string,
  data: PurchaseEventData<'OperatorMoved'>,
  now: Date,
  expectedRevision?: bigint,
): Promise<MoveOutcome> {
  try {
    const handled = await handleCommand(
      store,
      stream,
      purchaseDecider,
      (state) => (state.version === 0 ? undefined : { type: 'OperatorMove' as const, data, metadata: { now } }),
      expectedRevision !== undefined ? { expectedRevision } : {},
    );
    if (handled.before.version === 0) return { refused: { code: 'NO_SUCH_PURCHASE', message: `no stream ${stream}` } };
    return {
      moved: {
        from: handled.before.status,
        to: data.target,
        position: String(handled.position),
        revision: String(handled.revision),
      },
    };
  } catch (err) {
    if (err instanceof PurchaseRefused)
      return { refused: { code: err.code, message: err.message, details: err.details } };
    if (err instanceof WrongExpectedRevision)
      return {
        refused: {
          code: 'CONCURRENT_CHANGE',
          message: `the stream changed while deciding (${err.message}); run queue and try again`,
        },
      };
    throw err;
  }
}

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

  const now = ctx.now();
  const data: PurchaseEventData<'OperatorMoved'> = {
    target: to,
    note,
    operator,
    at: now.toISOString(),
    ...(settlement ? { settlement } : {}),
  };

  const outcome = await withPurchase(ctx, purchase, async (store, purchaseId) => ({
    purchaseId,
    ...(await movePurchase(store, streamName(purchaseId), data, now)),
  }));

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
