import type Router from '@koa/router';
import type Koa from 'koa';
import { streamName } from '../../../streams/purchase/purchase-id.js';
import { REFUND_STREAM_PREFIX, type RefundCommandBody } from '../../../streams/refund/index.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { readJsonBody } from '../../http/json-body.js';
import {
  MoveRequest,
  RefundPaidRequest,
  RefundReviewRequest,
  type MoveResponse,
  type RefundChangeResponse,
} from '../contract.js';
import { movePurchase } from '../move.js';
import type { OperatorDeps } from '../operator-deps.js';
import { orRefuse } from '../operator-refused.js';
import type { operatorReads } from '../reads.js';
import { changeRefund, recordRefundPayment, refundChainOf } from '../refunds.js';

// The operator API's actions, each the use-case the CLI runs (move.ts, refunds.ts) at the revision the
// operator saw (expected_revision): read, fold, decide, append.
//
//   POST /purchases/:id/move          MoveRequest → MoveResponse
//   POST /refunds/:id/review | /paid  RefundReviewRequest | RefundPaidRequest → RefundChangeResponse

export function actionRoutes(router: Router, deps: OperatorDeps, reads: ReturnType<typeof operatorReads>): void {
  const { store } = deps;
  const { fresh, purchaseIdOf } = reads;

  router.post('/purchases/:id/move', async (ctx) => {
    const body = decodeOrThrow(MoveRequest, await readJsonBody(ctx));
    await fresh();
    const id = await purchaseIdOf(ctx.params.id!);
    const data = {
      target: body.target,
      note: body.note.trim(),
      operator: body.operator.trim(),
      at: deps.now().toISOString(),
      ...(body.settlement ? { settlement: body.settlement } : {}),
    };
    const moved = orRefuse(
      await movePurchase(store, streamName(id), data, deps.now(), BigInt(body.expected_revision)),
    ).moved;
    deps.log.info({ purchase_id: id, target: body.target, operator: data.operator }, 'operator moved a purchase');
    ctx.body = { moved: { purchase_id: id, ...moved } } satisfies MoveResponse;
  });

  const refundChain = refundChainOf(deps.config);
  const refundChange = (what: 'review' | 'paid') => async (ctx: Koa.Context) => {
    const at = deps.now().toISOString();
    let change: (id: string) => ReturnType<typeof changeRefund>;
    let operator: string;
    if (what === 'review') {
      const b = decodeOrThrow(RefundReviewRequest, await readJsonBody(ctx));
      operator = b.operator.trim();
      const command: RefundCommandBody = {
        type: 'ReviewRefund',
        data: { decision: b.decision === 'approve' ? 'approved' : 'rejected', note: b.note.trim(), operator, at },
      };
      change = (id) => changeRefund(store, id, command, deps.now(), BigInt(b.expected_revision));
    } else {
      const b = decodeOrThrow(RefundPaidRequest, await readJsonBody(ctx));
      operator = b.operator.trim();
      const data = { transaction: b.transaction, amount_micro: b.amount_micro, note: b.note.trim(), operator, at };
      // Read on the chain before it is recorded (refunds.ts).
      change = (id) => recordRefundPayment(store, id, data, refundChain, deps.now(), BigInt(b.expected_revision));
    }
    await fresh();
    const arg = ctx.params.id!;
    const id = await purchaseIdOf(arg.startsWith(REFUND_STREAM_PREFIX) ? arg.slice(REFUND_STREAM_PREFIX.length) : arg);
    const done = orRefuse(await change(id)).done;
    deps.log.info({ purchase_id: id, refund: what, operator }, 'operator changed a refund request');
    ctx.body = { refund: done } satisfies RefundChangeResponse;
  };
  router.post('/refunds/:id/review', refundChange('review'));
  router.post('/refunds/:id/paid', refundChange('paid'));
}
