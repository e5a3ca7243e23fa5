import Router from '@koa/router';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { REFUND_REQUESTS_PATH, RefundRequestBody } from '@rights-preflight/wire/contract/refund.js';
import { refundStatus, requestRefund, type RefundDeps } from '../../refund/refund-request.js';

// POST /v1/rights/refund-requests and GET …/{purchase_id}: X-Service-Claim authorizes both.
export function refundsRouter(deps: RefundDeps): Router {
  const router = new Router();
  router.post(REFUND_REQUESTS_PATH, async (ctx) => {
    const body = decodeOrThrow(RefundRequestBody, await readJsonBody(ctx));
    const { status, view } = await requestRefund(deps, body, ctx.get('x-service-claim') || undefined);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status;
    ctx.body = view;
  });
  router.get(`${REFUND_REQUESTS_PATH}/:id`, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await refundStatus(deps, ctx.params.id ?? '', ctx.get('x-service-claim') || undefined);
  });
  return router;
}
