import { handleCommand } from '../command/handle-command.js';
import { WrongExpectedRevision, type EventStore } from '../store/port.js';
import type { PurchaseEventData } from '../../streams/purchase/events.js';
import { purchaseDecider } from '../../streams/purchase/decider.js';
import { PurchaseRefused } from '../../streams/purchase/refusals.js';
import { streamName } from '../../streams/purchase/purchase-id.js';
import { withPurchase, type PurchaseIdArg } from './purchase-id.js';
import type { OperatorSession } from './session.js';

// An operator moves a held or stuck purchase on (`ops move`, POST /operator/v1/purchases/:id/move, the
// console): the only way such a purchase moves on. The one command handler reads the stream, folds
// it, asks `decide` for an OperatorMoved and appends it at the folded revision, so a concurrent
// change (the service, another operator) makes the append fail instead of acting on a stale view.

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

/**
 * The move of the purchase an argument names (the id, `purchase-<id>` or a unique prefix), decided at
 * the instant the operator gave (`data.at`).
 */
export async function moveNamedPurchase(
  session: OperatorSession,
  purchase: PurchaseIdArg,
  data: PurchaseEventData<'OperatorMoved'>,
) {
  return withPurchase(session, purchase, async (store, purchaseId) => ({
    purchaseId,
    ...(await movePurchase(store, streamName(purchaseId), data, new Date(data.at))),
  }));
}
