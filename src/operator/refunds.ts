import { handleCommand } from '../../src/command/handle-command.js';
import { WrongExpectedRevision, type EventStore } from '../../src/store/port.js';
import {
  foldRefund,
  refundDecider,
  refundStream,
  RefundRefused,
  REFUND_STREAM_PREFIX,
  type RefundCommandBody,
  type RefundState,
} from '../../streams/refund/index.js';
import { boolFlag, onlyFlags, stringFlag, UsageError, type ParsedArgs } from './args.js';
import { EXIT, withStore, type OperatorContext } from './context.js';
import { parsePurchaseIdArg, withPurchase } from './purchase-id-arg.js';
import { streamsNamed } from './purchases.js';
import { sameHex } from './violation.js';
import {
  RefundChainUnavailable,
  refundTransferReader,
  type RefundTransferReader,
} from '../../src/refund/refund-transfer-reads.js';
import type { Config } from '../../src/config.js';
import type { RefundEventData, ExpectedRefund } from '../../streams/refund/index.js';
import { redactTokenLike } from '../../streams/refund/claim-in-text.js';
import { shortId, table } from './table.js';

// `refunds` — the operator's side of refund requests (spec §3: operator-reviewed, never automatic):
//   refunds [--all] [--json]                                     open requests (requested, approved); --all: every one
//   refunds review <purchase-id> --decision approve|reject --note "…" --operator <name>
//   refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>
// `paid` records a refund the operator transferred by hand; the service never sends money itself. The
// transaction is read on the chain first (RPC_URL) and recorded only if it is that refund: a successful
// USDC transfer to the purchase's payer of --amount, from REFUND_SENDERS (any sender when unset), not
// recorded for another refund (streams/refund/refund-transfer.ts; docs/decisions.md).
// <purchase-id> is the id, `purchase-<id>`, `refund-<id>` or a unique prefix (./purchase-id-arg.ts).
// Each change is decided on the folded stream and appended at its revision, so two operators acting
// at once cannot both succeed.

const USAGE =
  'refunds [--all] [--json] | ' +
  'refunds review <purchase-id> --decision approve|reject --note "…" --operator <name> | ' +
  'refunds paid <purchase-id> --tx 0x… --amount <micro> --note "…" --operator <name>';

interface Listed {
  purchase_id: string;
  state: RefundState;
}

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
  const listed = await withStore(ctx, async (store) => {
    const out: Listed[] = [];
    for (const stream of await streamsNamed(store, REFUND_STREAM_PREFIX)) {
      out.push({
        purchase_id: stream.slice(REFUND_STREAM_PREFIX.length),
        state: foldRefund(await store.readStream(stream)),
      });
    }
    return out;
  });
  const shown = listed.filter((l) => all || l.state.status === 'requested' || l.state.status === 'approved');
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
  let run: (store: EventStore, purchaseId: string) => Promise<RefundChangeOutcome>;
  if (what === 'review') {
    const decision = stringFlag(args, 'decision');
    if (decision !== 'approve' && decision !== 'reject') throw new UsageError('--decision must be approve or reject');
    const command: RefundCommandBody = {
      type: 'ReviewRefund',
      data: { decision: decision === 'approve' ? 'approved' : 'rejected', note, operator, at },
    };
    run = (store, purchaseId) => changeRefund(store, purchaseId, command, ctx.now());
  } else {
    const tx = stringFlag(args, 'tx');
    const amount = stringFlag(args, 'amount');
    if (!tx || !/^0x[0-9a-fA-F]{64}$/.test(tx))
      throw new UsageError('--tx must be the 0x-prefixed hash of the refund transfer the operator made');
    if (!amount || !/^(0|[1-9][0-9]*)$/.test(amount))
      throw new UsageError('--amount must be the refunded micro-USDC as an integer');
    const data = { transaction: tx as `0x${string}`, amount_micro: amount, note, operator, at };
    const chain = refundChainOf(ctx.config);
    run = (store, purchaseId) => recordRefundPayment(store, purchaseId, data, chain, ctx.now());
  }
  const outcome = await withPurchase(ctx, purchase, run);
  if ('refused' in outcome) {
    if (args.flags.has('json')) ctx.out(JSON.stringify({ refused: outcome.refused }));
    else ctx.err(`refused ${outcome.refused.code}: ${outcome.refused.message}`);
    return outcome.refused.code === CHAIN_UNAVAILABLE ? EXIT.cannotRun : EXIT.finding;
  }
  if (args.flags.has('json')) ctx.out(JSON.stringify({ refund: outcome.done }));
  else ctx.out(`${outcome.done.stream}: ${outcome.done.from} → ${outcome.done.to} by ${operator}`);
  return EXIT.ok;
}

export type RefundChangeOutcome =
  | { refused: { code: string; message: string } }
  | { done: { stream: string; from: string; to: string } };

/**
 * The refund command through the one command handler, at the folded revision (no retry: the operator
 * looks again). With `expectedRevision` (what the operator looked at) a request that changed since is
 * CONCURRENT_CHANGE.
 */
export async function changeRefund(
  store: EventStore,
  purchaseId: string,
  command: RefundCommandBody,
  now: Date,
  expectedRevision?: bigint,
): Promise<RefundChangeOutcome> {
  const stream = refundStream(purchaseId);
  try {
    const handled = await handleCommand(
      store,
      stream,
      refundDecider,
      (state) => (state.version === 0 ? undefined : { ...command, metadata: { now } }),
      expectedRevision !== undefined ? { expectedRevision } : {},
    );
    if (handled.before.version === 0)
      return { refused: { code: 'NO_SUCH_REFUND_REQUEST', message: `no stream ${stream}` } };
    return { done: { stream, from: handled.before.status, to: handled.state.status } };
  } catch (err) {
    if (err instanceof RefundRefused) return { refused: { code: err.code, message: err.message } };
    if (err instanceof WrongExpectedRevision)
      return {
        refused: {
          code: 'CONCURRENT_CHANGE',
          message: 'the request changed since it was looked at; list again and retry',
        },
      };
    throw err;
  }
}

const CHAIN_UNAVAILABLE = 'REFUND_CHAIN_UNAVAILABLE';

/** How refund transfers are checked under this configuration: its chain reader and allowed senders. */
export interface RefundChainCheck {
  /** Throws RefundChainUnavailable when the configuration names no chain. */
  read: () => RefundTransferReader;
  senders: ExpectedRefund['senders'];
}

export function refundChainOf(config: Config): RefundChainCheck {
  let reader: RefundTransferReader | undefined;
  return {
    read: () => (reader ??= refundTransferReader(config)),
    senders: config.refundSenders.length > 0 ? config.refundSenders : 'any',
  };
}

/** The purchase id of the refund that already records `transaction`, if any (one pass over `$all`). */
export async function refundRecording(store: EventStore, transaction: string): Promise<string | undefined> {
  const PAGE = 1000;
  let at = 0n;
  for (;;) {
    const page = await store.readAll(at, PAGE);
    for (const e of page) {
      at = e.position;
      if (
        e.type === 'RefundPaymentRecorded' &&
        e.stream.startsWith(REFUND_STREAM_PREFIX) &&
        sameHex((e.data as { transaction?: unknown }).transaction, transaction)
      )
        return e.stream.slice(REFUND_STREAM_PREFIX.length);
    }
    if (page.length < PAGE) return undefined;
  }
}

/**
 * `refunds paid`: the transaction is read on the chain and looked for among recorded refunds, then the
 * decider records it only if it is this refund. Two operators recording one hash for two refunds at
 * the same moment can both pass the look-up; `audit` finds such a pair (docs/decisions.md).
 */
export async function recordRefundPayment(
  store: EventStore,
  purchaseId: string,
  data: RefundEventData<'RefundPaymentRecorded'>,
  chain: RefundChainCheck,
  now: Date,
  expectedRevision?: bigint,
): Promise<RefundChangeOutcome> {
  let onChain;
  try {
    onChain = await chain.read()(data.transaction);
  } catch (err) {
    if (err instanceof RefundChainUnavailable) return { refused: { code: CHAIN_UNAVAILABLE, message: err.message } };
    throw err;
  }
  const usedBy = await refundRecording(store, data.transaction);
  return changeRefund(
    store,
    purchaseId,
    {
      type: 'RecordRefundPayment',
      data: { ...data, onChain: { ...onChain, ...(usedBy !== undefined ? { usedBy } : {}) }, senders: chain.senders },
    },
    now,
    expectedRevision,
  );
}
