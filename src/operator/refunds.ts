import { handleCommand } from '../command/handle-command.js';
import { WrongExpectedRevision, type EventStore } from '../store/port.js';
import {
  foldRefund,
  refundDecider,
  refundStream,
  RefundRefused,
  REFUND_STREAM_PREFIX,
  type RefundCommandBody,
  type RefundState,
} from '../../streams/refund/index.js';
import { withPurchase, type PurchaseIdArg } from './purchase-id.js';
import type { OperatorSession } from './session.js';
import { streamsNamed } from './stream-names.js';
import { sameHex } from './violation.js';
import {
  RefundChainUnavailable,
  refundTransferReader,
  type RefundTransferReader,
} from '../refund/refund-transfer-reads.js';
import type { Config } from '../config/config.js';
import type { RefundEventData, ExpectedRefund } from '../../streams/refund/index.js';

// The operator's side of refund requests (spec §3: operator-reviewed, never automatic): list them,
// review one, record one paid (`ops refunds`, the operator API, the console). `paid` records a refund
// the operator transferred by hand; the service never sends money itself. The transaction is read on
// the chain first (RPC_URL) and recorded only if it is that refund: a successful USDC transfer to the
// purchase's payer of the amount, from REFUND_SENDERS (any sender when unset), not recorded for
// another refund (streams/refund/refund-transfer.ts; docs/decisions.md).
// A purchase is named by its id, `purchase-<id>`, `refund-<id>` or a unique prefix (./purchase-id.ts).
// Each change is decided on the folded stream and appended at its revision, so two operators acting
// at once cannot both succeed.

interface Listed {
  purchase_id: string;
  state: RefundState;
}

/** The refund requests waiting for an operator (requested, approved), or every one with `all`. */
export async function listRefundRequests(session: OperatorSession, all: boolean): Promise<Listed[]> {
  const store = await session.store();
  const out: Listed[] = [];
  for (const stream of await streamsNamed(store, REFUND_STREAM_PREFIX)) {
    out.push({
      purchase_id: stream.slice(REFUND_STREAM_PREFIX.length),
      state: foldRefund(await store.readStream(stream)),
    });
  }
  return out.filter((l) => all || l.state.status === 'requested' || l.state.status === 'approved');
}

/** The review of the refund request of the purchase an argument names. */
export const reviewNamedRefund = (
  session: OperatorSession,
  purchase: PurchaseIdArg,
  data: RefundEventData<'RefundReviewed'>,
) =>
  withPurchase(session, purchase, (store, purchaseId) =>
    changeRefund(store, purchaseId, { type: 'ReviewRefund', data }, new Date(data.at)),
  );

/** A refund transfer recorded for the purchase an argument names, once read on the chain. */
export const recordNamedRefundPayment = (
  session: OperatorSession,
  purchase: PurchaseIdArg,
  data: RefundEventData<'RefundPaymentRecorded'>,
) => {
  const chain = refundChainOf(session.config);
  return withPurchase(session, purchase, (store, purchaseId) =>
    recordRefundPayment(store, purchaseId, data, chain, new Date(data.at)),
  );
};

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

export const CHAIN_UNAVAILABLE = 'REFUND_CHAIN_UNAVAILABLE';

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
