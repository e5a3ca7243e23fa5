import Router from '@koa/router';
import { redeemReport } from '../../money-path/redeem-report.js';
import type { ResumeDeps } from '../../money-path/resume.js';
import { bodiesOfSku, redemptionAnswer, send } from '../present-redemption.js';

// GET /v1/rights/reports/{id}: claim + optional PAYMENT-SIGNATURE in, 402 / 200 / error out. The body
// is checked against the codec of the purchase's own product (a gate's delivery is a gate response).
export function reportsRouter(deps: ResumeDeps): Router {
  const router = new Router();
  router.get('/v1/rights/reports/:id', async (ctx) => {
    const { sku, redemption } = await redeemReport(deps, {
      id: ctx.params.id ?? '',
      claim: ctx.get('x-service-claim') || undefined,
      paymentSignature: ctx.get('payment-signature') || undefined,
    });
    send(ctx, redemptionAnswer(redemption, bodiesOfSku(sku)));
  });
  return router;
}
